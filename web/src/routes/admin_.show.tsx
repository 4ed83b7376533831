import { useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { getSession, useSession } from '../lib/session.ts';
import { useLiveMessages } from '../live/connection.ts';
import { useShowFollowers } from '../live/following.ts';
import { revealQueryOptions } from '../queries/reveal.ts';
import { MURAL_ITEM, showQueryOptions, useShowAction, type ShowItemRef } from '../queries/show.ts';
import { ChevronLeftIcon, ChevronRightIcon, PauseIcon, PlayIcon } from '../components/icons.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { slideCaption } from './-components/reveal/slideshow.ts';
import { ReactionTotals } from './-components/show/ReactionBar.tsx';
import { useShowItem } from './-components/show/useShow.ts';
import { useWakeLock } from '../lib/wakeLock.ts';
import { useWaitingInTitle } from '../lib/pageTitle.ts';
import { useWaitingForReview } from '../queries/admin.ts';
import type { ItemView } from '../../../contract/views.ts';

export const Route = createFileRoute('/admin_/show')({
  loader: ({ context }) => {
    if (!getSession().admin) return;
    void context.queryClient.prefetchQuery(showQueryOptions());
    void context.queryClient.prefetchQuery(revealQueryOptions());
  },
  component: PresenterPage,
});

function PresenterPage() {
  const session = useSession();
  if (!session.admin) {
    return (
      <div className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="font-display text-3xl font-bold text-stone-900 dark:text-amber-50">Admin Access Required</h1>
        <p className="mt-3 text-stone-600 dark:text-stone-400">Log in with the admin password to present the show.</p>
        <Link to="/gallery" className="btn-primary mt-8">
          Back to Gallery
        </Link>
      </div>
    );
  }
  return <Presenter />;
}

type Totals = Partial<Record<string, number>>;
const keyOf = (i: ShowItemRef) => `${i.kind}:${i.id}`;

/**
 * The presenter: one thumb on a phone drives the show. Next is the biggest target, at the bottom where
 * the thumb rests; previous, pause and stop sit beside it; the current item, what comes next, the
 * room's reactions and how many screens follow are above. Every tap is a `POST /api/show`.
 */
function Presenter() {
  const show = useQuery(showQueryOptions());
  const deck = useQuery(revealQueryOptions());
  const followers = useShowFollowers();
  const [error, setError] = useState<string | null>(null);
  const [liveTotals, setLiveTotals] = useState<Record<string, Totals>>({});

  const act = useShowAction({ onSuccess: () => setError(null), onError: (e) => setError(e.message) });
  useLiveMessages((message) => {
    if (message.event !== 'reactions:burst') return;
    const { kind, id, totals } = message.payload;
    setLiveTotals((all) => ({ ...all, [`${kind}:${id}`]: totals }));
  });

  const data = show.data;
  const awake = useWakeLock();
  useWaitingInTitle(useWaitingForReview());
  const current = useShowItem(data?.current ?? null, deck.data?.items);
  const byKey = useMemo(() => new Map(deck.data?.items.map((i) => [keyOf(i), i])), [deck.data]);
  const upcoming = new Set(data?.upNext.map(keyOf));
  // newest approvals first: what arrived during the meeting is at the top, to put next
  const others = [...(deck.data?.items ?? [])]
    .filter((i) => !upcoming.has(keyOf(i)) && (!data?.current || keyOf(i) !== keyOf(data.current)))
    .sort((a, b) => approvedAt(b).localeCompare(approvedAt(a)));

  if (show.isPending) return <Spinner className="mx-auto mt-24 h-10 w-10 text-amber-600" />;
  if (!data) return <p className="p-8 text-center">Failed to load the show. Please try refreshing the page.</p>;

  const running = data.state !== 'idle';
  const onMural = data.current?.kind === MURAL_ITEM.kind;
  const busy = act.isPending;
  const totals = current.item
    ? (liveTotals[keyOf(current.item)] ?? (current.item as ItemView & { reactions?: Totals }).reactions)
    : undefined;

  return (
    <div className="mx-auto flex min-h-[calc(100dvh-4rem)] max-w-xl flex-col gap-4 px-4 pt-4 pb-40">
      <header className="flex items-center justify-between gap-3">
        <h1 className="font-display text-2xl font-bold text-stone-900 dark:text-amber-50">Presenter</h1>
        <p className="flex items-center gap-2 text-sm text-stone-600 dark:text-stone-400">
          <StateBadge state={data.state} />
          <span data-testid="followers" className="whitespace-nowrap">
            {followers === null ? '…' : followers} {followers === 1 ? 'screen' : 'screens'} following
          </span>
        </p>
      </header>
      {awake === 'held' && (
        <p data-testid="wake-lock" className="-mt-3 text-xs text-stone-500 dark:text-stone-400">
          This screen stays on while this page is open.
        </p>
      )}

      {error && (
        <p
          role="alert"
          className="rounded-lg bg-rose-100 px-3 py-2 text-sm text-rose-800 dark:bg-rose-950 dark:text-rose-200"
        >
          {error}
        </p>
      )}

      {!running ? (
        <section className="flex flex-1 flex-col items-center justify-center gap-4 text-center">
          <p className="text-stone-600 dark:text-stone-400">
            Start the show and every{' '}
            <Link to="/reveal" className="underline">
              /reveal
            </Link>{' '}
            screen and phone follows you. {deck.data ? `${deck.data.items.length} items are ready.` : ''}
          </p>
          <button
            type="button"
            disabled={busy}
            onClick={() => act.mutate({ action: 'start' })}
            className="h-20 w-full rounded-2xl bg-rose-600 text-2xl font-bold text-white shadow-lg active:scale-[0.98] disabled:opacity-60"
          >
            Start the show
          </button>
        </section>
      ) : (
        <>
          <section aria-label="Now showing" className="rounded-2xl bg-white p-4 shadow-sm dark:bg-stone-900">
            <p className="text-xs font-semibold tracking-wide text-stone-500 uppercase dark:text-stone-400">
              Now showing · {data.index + 1} of {data.total}
            </p>
            {onMural ? (
              <MuralLine large testId="presenter-current" />
            ) : current.item ? (
              <ItemLine item={current.item} large testId="presenter-current" />
            ) : (
              <p className="mt-1 text-stone-500">{current.missing ? 'No longer in the gallery' : 'Loading…'}</p>
            )}
            {!onMural && <ReactionTotals className="mt-3" totals={totals} />}
          </section>

          {/* the room draws on /mural while every screen watches it fill up (decision 046) */}
          <button
            type="button"
            disabled={busy || onMural}
            onClick={() => act.mutate({ action: 'goto', ...MURAL_ITEM })}
            className="h-12 w-full rounded-xl border-2 border-amber-500 bg-amber-50 font-semibold text-amber-900 active:scale-[0.98] disabled:opacity-50 dark:bg-stone-900 dark:text-amber-200"
          >
            {onMural ? 'The mural is on every screen' : 'Show the mural'}
          </button>

          <section aria-label="Up next">
            <h2 className="mb-2 text-sm font-semibold text-stone-700 dark:text-stone-300">Up next</h2>
            {data.upNext.length === 0 ? (
              <p className="text-sm text-stone-500 dark:text-stone-400">Nothing after this one.</p>
            ) : (
              <ol className="flex flex-col gap-1.5">
                {data.upNext.map((ref, n) => {
                  const item = byKey.get(keyOf(ref));
                  return (
                    <li
                      key={`${keyOf(ref)}:${n}`}
                      className="flex items-center gap-2 rounded-xl bg-white/70 p-2 dark:bg-stone-900/70"
                    >
                      <div className="min-w-0 flex-1">
                        {ref.kind === MURAL_ITEM.kind ? <MuralLine /> : item ? <ItemLine item={item} /> : keyOf(ref)}
                      </div>
                      <SmallButton disabled={busy} onClick={() => act.mutate({ action: 'goto', ...ref })}>
                        Show now
                      </SmallButton>
                    </li>
                  );
                })}
              </ol>
            )}
          </section>

          <details className="rounded-xl bg-white/70 p-2 dark:bg-stone-900/70">
            <summary className="min-h-11 cursor-pointer px-1 py-3 text-sm font-semibold text-stone-700 dark:text-stone-300">
              All items ({others.length}), newest approvals first
            </summary>
            {others.length === 0 && (
              <p className="px-1 pb-2 text-sm text-stone-500 dark:text-stone-400">
                Every approved item is showing or up next.
              </p>
            )}
            <ul className="flex flex-col gap-4 sm:gap-1.5">
              {others.map((item) => (
                // on a phone the name gets the row and the two buttons share the line below it
                <li key={keyOf(item)} className="grid grid-cols-2 gap-2 sm:flex sm:items-center">
                  <div className="col-span-2 min-w-0 sm:flex-1">
                    <ItemLine item={item} />
                  </div>
                  <SmallButton
                    disabled={busy}
                    onClick={() => act.mutate({ action: 'queue', kind: item.kind, id: item.id })}
                  >
                    Put next
                  </SmallButton>
                  <SmallButton
                    disabled={busy}
                    onClick={() => act.mutate({ action: 'goto', kind: item.kind, id: item.id })}
                  >
                    Show now
                  </SmallButton>
                </li>
              ))}
            </ul>
          </details>

          {/* the thumb's row, fixed at the bottom of the phone */}
          <nav
            aria-label="Show controls"
            className="fixed inset-x-0 bottom-0 z-40 border-t border-stone-200 bg-white px-4 pt-3 pb-[max(0.5rem,env(safe-area-inset-bottom))] dark:border-stone-800 dark:bg-stone-950"
          >
            {/* as wide as the page's column (max-w-xl less its px-4), so the buttons line up with the lists */}
            <div className="mx-auto grid max-w-[34rem] grid-cols-[1fr_1fr_2fr] gap-2">
              <BigButton
                label="Previous"
                disabled={busy || data.index === 0}
                onClick={() => act.mutate({ action: 'prev', from: data.index })}
              >
                <ChevronLeftIcon className="h-7 w-7" />
              </BigButton>
              {data.state === 'paused' ? (
                <BigButton label="Resume" disabled={busy} onClick={() => act.mutate({ action: 'resume' })}>
                  <PlayIcon className="h-7 w-7" filled />
                </BigButton>
              ) : (
                <BigButton label="Pause" disabled={busy} onClick={() => act.mutate({ action: 'pause' })}>
                  <PauseIcon className="h-7 w-7" />
                </BigButton>
              )}
              <BigButton
                label="Next"
                primary
                disabled={busy || data.index >= data.total - 1}
                onClick={() => act.mutate({ action: 'next', from: data.index })}
              >
                <span className="text-xl font-bold">Next</span>
                <ChevronRightIcon className="h-7 w-7" />
              </BigButton>
            </div>
            <div className="mx-auto mt-1 flex max-w-[34rem] justify-end">
              <button
                type="button"
                disabled={busy}
                onClick={() => {
                  if (window.confirm('Stop the show? Every screen goes back to its own slideshow.'))
                    act.mutate({ action: 'stop' });
                }}
                className="min-h-11 rounded-lg px-4 text-sm font-semibold text-rose-700 hover:bg-rose-50 dark:text-rose-300 dark:hover:bg-stone-800"
              >
                Stop the show
              </button>
            </div>
          </nav>
        </>
      )}
    </div>
  );
}

const approvedAt = (item: ItemView) => item.approvedAt ?? '';

function StateBadge({ state }: { state: 'idle' | 'running' | 'paused' }) {
  const look = {
    idle: 'bg-stone-200 text-stone-700 dark:bg-stone-800 dark:text-stone-300',
    running: 'bg-emerald-600 text-white',
    paused: 'bg-amber-500 text-stone-950',
  }[state];
  const label = { idle: 'Not running', running: 'Live', paused: 'Paused' }[state];
  return (
    <span data-testid="show-state" className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${look}`}>
      {label}
    </span>
  );
}

function ItemLine({ item, large = false, testId }: { item: ItemView; large?: boolean; testId?: string }) {
  const { title, by, kind } = slideCaption(item);
  const thumb = item.kind !== 'story' ? item.thumbnailUrl : null;
  return (
    <div className="flex min-w-0 items-center gap-3" data-testid={testId} data-item={`${item.kind}:${item.id}`}>
      {thumb ? (
        <img src={thumb} alt="" className={`${large ? 'h-16 w-16' : 'h-10 w-10'} shrink-0 rounded-lg object-cover`} />
      ) : (
        <span
          aria-hidden="true"
          className={`${large ? 'h-16 w-16 text-2xl' : 'h-10 w-10'} flex shrink-0 items-center justify-center rounded-lg bg-amber-100 font-display text-amber-700 dark:bg-stone-800 dark:text-amber-300`}
        >
          “
        </span>
      )}
      <div className="min-w-0">
        <p className={`truncate font-semibold text-stone-900 dark:text-amber-50 ${large ? 'text-lg' : 'text-sm'}`}>
          {title}
        </p>
        <p className="truncate text-xs text-stone-600 dark:text-stone-400">
          {kind} · by {by}
        </p>
      </div>
    </div>
  );
}

/** The mural, as the presenter's lists name it. */
function MuralLine({ large = false, testId }: { large?: boolean; testId?: string }) {
  return (
    <div className="flex min-w-0 items-center gap-3" data-testid={testId} data-item="mural:1">
      <span
        aria-hidden="true"
        className={`${large ? 'h-16 w-16 text-2xl' : 'h-10 w-10'} flex shrink-0 items-center justify-center rounded-lg bg-rose-100 text-rose-700 dark:bg-stone-800 dark:text-rose-300`}
      >
        ✎
      </span>
      <div className="min-w-0">
        <p className={`truncate font-semibold text-stone-900 dark:text-amber-50 ${large ? 'text-lg' : 'text-sm'}`}>
          The group mural
        </p>
        <p className="truncate text-xs text-stone-600 dark:text-stone-400">Mural · drawn live by everyone</p>
      </div>
    </div>
  );
}

function BigButton(props: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  primary?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={props.label}
      disabled={props.disabled}
      onClick={props.onClick}
      className={`flex h-16 items-center justify-center gap-1 rounded-2xl shadow-sm transition active:scale-95 disabled:opacity-40 ${
        props.primary
          ? 'bg-rose-600 text-white'
          : 'border border-stone-300 bg-white text-stone-800 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100'
      }`}
    >
      {props.children}
    </button>
  );
}

function SmallButton({
  onClick,
  disabled,
  children,
}: {
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      disabled={disabled}
      onClick={onClick}
      className="min-h-11 shrink-0 rounded-lg border border-stone-300 px-3 text-sm font-semibold text-stone-700 active:scale-95 disabled:opacity-40 dark:border-stone-700 dark:text-stone-200"
    >
      {children}
    </button>
  );
}
