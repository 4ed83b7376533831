import { useEffect, useState } from 'react';
import { Link, useRouterState } from '@tanstack/react-router';
import { useOnlineCount } from '../live/connection.ts';
import { isAuditor, useSession } from '../lib/session.ts';
import { CloseIcon, MenuIcon, PaletteIcon } from './icons.tsx';
import { Tooltip } from './Tooltip.tsx';

const NAV = [
  { to: '/gallery', label: 'Gallery' },
  { to: '/submit', label: 'Share Artwork' },
  { to: '/create', label: 'Begin Creating' },
  { to: '/submit-media', label: 'Add Media' },
  { to: '/submit-story', label: 'Tell a Story' },
  // what this browser sent and what became of it (CONTRACT §11)
  { to: '/mine', label: 'Your contributions' },
] as const;

const linkClass =
  'rounded-full px-4 py-2 font-medium text-stone-600 transition hover:bg-amber-100 hover:text-stone-900 dark:text-stone-300 dark:hover:bg-stone-800 dark:hover:text-amber-50';
const activeClass = 'bg-amber-100 text-stone-900 dark:bg-stone-800 dark:text-amber-50';

export function Header() {
  const [open, setOpen] = useState(false);
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const session = useSession();
  // admins and auditors also read the log (CONTRACT §6)
  const nav = session.admin || isAuditor() ? [...NAV, { to: '/audit', label: 'Audit' } as const] : NAV;

  // A new screen closes the menu, and so does Escape.
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  const menuLabel = open ? 'Close menu' : 'Open menu';
  return (
    <header className="sticky top-0 z-40 border-b border-amber-100 bg-white/80 backdrop-blur-md dark:border-stone-800 dark:bg-stone-950/80">
      <div className="mx-auto flex max-w-7xl items-center justify-between gap-3 px-4 py-3 sm:px-6">
        <Link
          to="/"
          className="flex shrink-0 items-center gap-2.5 font-display text-xl font-bold text-stone-900 dark:text-amber-50"
        >
          <span className="flex h-9 w-9 items-center justify-center rounded-full bg-gradient-to-br from-amber-400 to-rose-500 text-white shadow-md">
            <PaletteIcon className="h-5 w-5" />
          </span>
          Tribute Gallery
        </Link>
        <nav aria-label="Main" className="hidden items-center gap-1 lg:flex">
          {nav.map((item) => (
            <Link key={item.to} to={item.to} className={linkClass} activeProps={{ className: activeClass }}>
              {item.label}
            </Link>
          ))}
        </nav>
        <div className="flex items-center gap-2">
          <Presence />
          <Tooltip label={menuLabel} side="bottom">
            <button
              type="button"
              className="rounded-full p-2 text-stone-700 hover:bg-amber-100 lg:hidden dark:text-stone-200 dark:hover:bg-stone-800"
              aria-label={menuLabel}
              aria-expanded={open}
              aria-controls="mobile-menu"
              onClick={() => setOpen(!open)}
            >
              {open ? <CloseIcon className="h-6 w-6" /> : <MenuIcon className="h-6 w-6" />}
            </button>
          </Tooltip>
        </div>
      </div>
      <nav
        id="mobile-menu"
        aria-label="Mobile"
        hidden={!open}
        className="border-t border-amber-100 px-4 pb-4 lg:hidden dark:border-stone-800"
      >
        <ul className="flex flex-col gap-1 pt-2">
          {nav.map((item) => (
            <li key={item.to}>
              <Link to={item.to} className={`block ${linkClass}`} activeProps={{ className: activeClass }}>
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}

/**
 * How many times `value` has changed since it was first known (null: not known, as while the socket
 * reconnects; coming back from it is not a change).
 */
function useChanges(value: number | null): number {
  const [last, setLast] = useState({ value, changes: 0 });
  if (value === last.value) return last.changes;
  // derived from the previous render's value, as React's docs store it: set while rendering
  const changes = last.value === null || value === null ? last.changes : last.changes + 1;
  setLast({ value, changes });
  return changes;
}

/**
 * 'N viewing', from the socket's presence count; nothing until the first count arrives. The dot pulses
 * once when the count changes (someone came or went), and rests otherwise, on a page just opened too: a
 * pulsing dot keeps the compositor drawing 60 frames a second (decisions 155 and 156).
 */
function Presence() {
  const online = useOnlineCount();
  const changes = useChanges(online);
  if (online === null) return null;
  return (
    <p className="inline-flex items-center gap-1.5 rounded-full bg-emerald-50 px-2.5 py-1 text-xs font-medium whitespace-nowrap text-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-200">
      <span
        // a new dot for each change starts its pulse again
        key={changes}
        data-testid="presence-dot"
        className={`h-2 w-2 rounded-full bg-emerald-500 ${changes > 0 ? 'motion-safe:animate-presence-pulse' : ''}`}
        aria-hidden="true"
      />
      {online} viewing
    </p>
  );
}
