import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { getSession, useSession } from '../lib/session.ts';
import { useShowFollowers } from '../live/following.ts';
import { revealQueryOptions } from '../queries/reveal.ts';
import { montageQueryOptions } from '../queries/montage.ts';
import { MONTAGE_ITEM, MURAL_ITEM, showQueryOptions, useShowAction } from '../queries/show.ts';
import { Spinner } from '../components/Spinner.tsx';
import { useShowItem } from './-components/show/useShow.ts';
import { AllItems, notInShow } from './-components/presenter/AllItems.tsx';
import { NowShowing, useLiveReactionTotals } from './-components/presenter/NowShowing.tsx';
import { PresenterHeader } from './-components/presenter/PresenterHeader.tsx';
import { ShowControls } from './-components/presenter/ShowControls.tsx';
import { UpNext } from './-components/presenter/UpNext.tsx';
import { useWakeLock } from '../lib/wakeLock.ts';
import { useWaitingInTitle } from '../lib/pageTitle.ts';
import { useWaitingForReview } from '../queries/admin.ts';

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
  const liveTotals = useLiveReactionTotals();

  const action = useShowAction({ onSuccess: () => setError(null), onError: (e) => setError(e.message) });
  const data = show.data;
  const awake = useWakeLock();
  useWaitingInTitle(useWaitingForReview());
  const current = useShowItem(data?.current ?? null, deck.data?.items);
  const montageReady = useQuery(montageQueryOptions()).data?.state === 'ready';

  if (show.isPending) return <Spinner className="mx-auto mt-24 h-10 w-10 text-amber-600" />;
  if (!data) return <p className="p-8 text-center">Failed to load the show. Please try refreshing the page.</p>;

  const onMural = data.current?.kind === MURAL_ITEM.kind;
  const onMontage = data.current?.kind === MONTAGE_ITEM.kind;
  const busy = action.isPending;
  const act = action.mutate;

  return (
    <div className="mx-auto flex min-h-[calc(100dvh-4rem)] max-w-xl flex-col gap-4 px-4 pt-4 pb-40">
      <PresenterHeader state={data.state} followers={followers} awake={awake} />

      {error && (
        <p
          role="alert"
          className="rounded-lg bg-rose-100 px-3 py-2 text-sm text-rose-800 dark:bg-rose-950 dark:text-rose-200"
        >
          {error}
        </p>
      )}

      {data.state === 'idle' ? (
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
            onClick={() => act({ action: 'start' })}
            className="h-20 w-full rounded-2xl bg-rose-600 text-2xl font-bold text-white shadow-lg active:scale-[0.98] disabled:opacity-60"
          >
            Start the show
          </button>
        </section>
      ) : (
        <>
          <NowShowing show={data} current={current} liveTotals={liveTotals} />

          {/* the room draws on /mural while every screen watches it fill up (decision 046) */}
          <button
            type="button"
            disabled={busy || onMural}
            onClick={() => act({ action: 'goto', ...MURAL_ITEM })}
            className="h-12 w-full rounded-xl border-2 border-amber-500 bg-amber-50 font-semibold text-amber-900 active:scale-[0.98] disabled:opacity-50 dark:bg-stone-900 dark:text-amber-200"
          >
            {onMural ? 'The mural is on every screen' : 'Show the mural'}
          </button>
          {/* only the film of the videos approved now, as /api/montage.mp4 serves it (decision 125) */}
          {(montageReady || onMontage) && (
            <button
              type="button"
              disabled={busy || onMontage}
              onClick={() => act({ action: 'goto', ...MONTAGE_ITEM })}
              className="h-12 w-full rounded-xl border-2 border-amber-500 bg-amber-50 font-semibold text-amber-900 active:scale-[0.98] disabled:opacity-50 dark:bg-stone-900 dark:text-amber-200"
            >
              {onMontage ? 'The montage is on every screen' : 'Show the montage'}
            </button>
          )}

          <UpNext show={data} deck={deck.data?.items} busy={busy} act={act} />
          <AllItems others={notInShow(deck.data?.items, data)} busy={busy} act={act} />
          <ShowControls show={data} busy={busy} act={act} />
        </>
      )}
    </div>
  );
}
