import { useState, type ComponentType } from 'react';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, type LinkProps } from '@tanstack/react-router';
import { tributeQueryOptions } from '../queries/tribute.ts';
import { logout } from '../queries/gate.ts';
import { clearDrafts } from '../lib/drafts.ts';
import { clearSession } from '../lib/session.ts';
import {
  BookIcon,
  BrushIcon,
  FilmIcon,
  GalleryIcon,
  LogoutIcon,
  SparklesIcon,
  UploadIcon,
} from '../components/icons.tsx';

export const Route = createFileRoute('/')({
  component: LandingPage,
});

interface Action {
  to: LinkProps['to'];
  label: string;
  text: string;
  Icon: ComponentType<{ className?: string }>;
  tint: string;
}

const ACTIONS: Action[] = [
  {
    to: '/gallery',
    label: 'Browse Gallery',
    text: 'See everything your colleagues have shared.',
    Icon: GalleryIcon,
    tint: 'from-amber-400 to-orange-500',
  },
  {
    to: '/submit',
    label: 'Share Artwork',
    text: 'Upload a drawing, a photo memory or AI art.',
    Icon: UploadIcon,
    tint: 'from-rose-400 to-pink-500',
  },
  {
    to: '/create',
    label: 'Begin Creating',
    text: 'Draw something right here in your browser.',
    Icon: BrushIcon,
    tint: 'from-fuchsia-400 to-purple-500',
  },
  {
    to: '/submit-story',
    label: 'Tell a Story',
    text: 'Write down a memory or a few kind words.',
    Icon: BookIcon,
    tint: 'from-emerald-400 to-teal-500',
  },
  {
    to: '/submit-media',
    label: 'Add Media',
    text: 'Record a video or audio message.',
    Icon: FilmIcon,
    tint: 'from-sky-400 to-indigo-500',
  },
];

function LandingPage() {
  const tribute = useQuery(tributeQueryOptions());
  const [loggingOut, setLoggingOut] = useState(false);
  const name = tribute.data?.name;

  async function onLogout() {
    setLoggingOut(true);
    await logout().catch(() => undefined);
    clearSession();
    clearDrafts();
    window.location.reload();
  }

  return (
    <div className="mx-auto flex min-h-screen max-w-6xl flex-col px-4 py-12 sm:px-6 sm:py-20">
      <section className="text-center">
        <p className="inline-flex items-center gap-2 rounded-full bg-white/70 px-4 py-1.5 text-sm font-semibold tracking-wide text-rose-600 uppercase shadow-sm dark:bg-stone-900/70 dark:text-rose-300">
          <SparklesIcon className="h-4 w-4" /> A secret tribute
        </p>
        <h1 className="mt-6 font-display text-5xl leading-tight font-bold text-stone-900 sm:text-6xl lg:text-7xl dark:text-amber-50">
          {name ? (
            <>
              Celebrating{' '}
              <span className="bg-gradient-to-r from-amber-500 via-rose-500 to-fuchsia-500 bg-clip-text text-transparent">
                {name}
              </span>
            </>
          ) : (
            'Tribute Gallery'
          )}
        </h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg text-stone-600 sm:text-xl dark:text-stone-300">
          A private gallery of art, stories and messages from the people who work alongside {name ?? 'our colleague'}.
          Add your own piece to the surprise.
        </p>
      </section>

      <ul className="mt-14 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
        {ACTIONS.map(({ to, label, text, Icon, tint }) => (
          <li key={label} className="card group relative p-6 transition hover:-translate-y-1 hover:shadow-xl">
            <span
              className={`flex h-12 w-12 items-center justify-center rounded-2xl bg-gradient-to-br ${tint} text-white shadow-md`}
            >
              <Icon className="h-6 w-6" />
            </span>
            <h2 className="mt-4 font-display text-2xl font-semibold text-stone-900 dark:text-amber-50">
              <Link to={to} className="after:absolute after:inset-0 after:rounded-2xl">
                {label}
              </Link>
            </h2>
            <p className="mt-1.5 text-stone-600 dark:text-stone-400">{text}</p>
          </li>
        ))}
        <li className="card flex flex-col items-start justify-between gap-4 p-6">
          <p className="text-stone-600 dark:text-stone-400">
            Finished for now? Your contributions stay safe in the gallery.
          </p>
          <button type="button" onClick={() => void onLogout()} disabled={loggingOut} className="btn-secondary">
            <LogoutIcon className="h-4 w-4" /> Logout
          </button>
        </li>
      </ul>
    </div>
  );
}
