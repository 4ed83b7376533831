import { lazy, Suspense, useCallback } from 'react';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { revealQueryOptions } from '../queries/reveal.ts';
import { tributeQueryOptions } from '../queries/tribute.ts';
import { getSession } from '../lib/session.ts';
import { SparklesIcon } from '../components/icons.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { JoinCode } from './-components/reveal/JoinCode.tsx';
import { RevealControls } from './-components/reveal/RevealControls.tsx';
import { Slide } from './-components/reveal/Slide.tsx';
import { SLIDE_MS, slideCaption } from './-components/reveal/slideshow.ts';
import { useFullscreen, useRevealKeys } from './-components/reveal/useRevealKeys.ts';
import { useSlideshow, type Slideshow } from './-components/reveal/useSlideshow.ts';
import { FloatingReactions } from './-components/show/FloatingReactions.tsx';
import { ShowMontage } from './-components/show/ShowMontage.tsx';
import { StrokeReplay } from './-components/show/StrokeReplay.tsx';
import { ReactionBar, ReactionTotals } from './-components/show/ReactionBar.tsx';
import { isLive, useShow, useShowItem } from './-components/show/useShow.ts';
import { isReactable, sendShowAction, type ShowAnswer } from '../queries/show.ts';
import { useFollowShow } from '../live/following.ts';
import { useWakeLock } from '../lib/wakeLock.ts';
import { pictureAlt, type ItemView } from '../../../contract/views.ts';

// the mural's canvas and painter load only when the presenter puts the mural up (the page-weight budget)
const ShowMural = lazy(() => import('./-components/show/ShowMural.tsx'));

export const Route = createFileRoute('/reveal')({
  loader: ({ context }) => {
    if (getSession().signedIn) void context.queryClient.prefetchQuery(revealQueryOptions());
  },
  component: RevealPage,
});

/**
 * The meeting's big screen: every approved item in turn, and whatever is approved meanwhile next.
 * While the admin runs a show (CONTRACT §7), every screen follows the presenter instead, and phones
 * get a reaction bar; the keys then drive the show for an admin and do nothing for the others.
 */
function RevealPage() {
  // every open /reveal follows the show (it shows its own slideshow until one starts): the presenter counts it
  useFollowShow();
  const deck = useQuery(revealQueryOptions());
  const name = useQuery(tributeQueryOptions()).data?.name;
  const own = useSlideshow(deck.data?.items);
  const live = useShow();
  const following = isLive(live) ? live : undefined;
  const showItem = useShowItem(following?.current ?? null, deck.data?.items);
  const onMural = following?.current.kind === 'mural';
  const onMontage = following?.current.kind === 'montage';
  const special = onMural ? MURAL_CAPTION : onMontage ? MONTAGE_CAPTION : undefined;
  const admin = getSession().admin;
  const act = (action: 'next' | 'prev' | 'pause' | 'resume') => () => {
    const from = action === 'next' || action === 'prev' ? { from: following?.index } : {};
    if (admin) void sendShowAction({ action, ...from }).catch(() => {});
  };
  const show: Slideshow = following
    ? {
        ...own,
        item: showItem.item,
        step: following.index,
        place: following.index + 1,
        arrived: false,
        paused: following.state === 'paused',
        next: act('next'),
        previous: act('prev'),
        togglePause: act(following.state === 'paused' ? 'resume' : 'pause'),
      }
    : own;
  const fullscreen = useFullscreen();
  const awake = useWakeLock();
  const navigate = useNavigate();
  const exit = useCallback(() => void navigate({ to: '/gallery' }), [navigate]);
  useRevealKeys({
    next: show.next,
    previous: show.previous,
    togglePause: show.togglePause,
    toggleFullscreen: fullscreen.toggle,
    exit,
  });

  const total = deck.data?.total;
  const count = following ? following.total : (deck.data?.items.length ?? 0);
  return (
    <div
      data-wake-lock={awake}
      className="fixed inset-0 z-30 flex flex-col overflow-hidden bg-gradient-to-br from-amber-50 via-rose-50 to-amber-100 text-stone-900 dark:from-stone-950 dark:via-stone-900 dark:to-stone-950 dark:text-amber-50"
    >
      <header className="flex items-start justify-between gap-4 px-4 pt-4 sm:px-8 sm:pt-6">
        <div>
          <h1 className="font-display text-xl font-bold sm:text-3xl">Tribute Gallery</h1>
          <p className="text-sm text-stone-600 sm:text-base dark:text-stone-400">Celebrating {name ?? 'our friend'}</p>
        </div>
        <div className="flex flex-col items-end gap-3">
          {total !== undefined && (
            <p className="rounded-full bg-white/70 px-4 py-1.5 text-sm font-medium whitespace-nowrap text-stone-700 shadow-sm backdrop-blur sm:text-lg dark:bg-stone-800/70 dark:text-stone-200">
              <span className="font-display text-lg font-bold text-rose-600 tabular-nums sm:text-2xl dark:text-amber-300">
                {total}
              </span>{' '}
              {total === 1 ? 'contribution' : 'contributions'}
            </p>
          )}
          {/* the big screen invites the room in; a phone following the show has no need of it */}
          <div className="hidden md:block">
            <JoinCode url={`${window.location.origin}/`} />
          </div>
        </div>
      </header>

      <div className="flex min-h-0 flex-1 items-center justify-center px-4 py-4 sm:px-10 sm:py-6">
        {deck.isPending ? (
          <Spinner className="h-10 w-10 text-amber-600" />
        ) : deck.isError ? (
          <Message title="Failed to load gallery" text="Please try refreshing the page." />
        ) : following && onMural ? (
          <div
            key={`show:${following.index}:mural`}
            data-slide="mural:1"
            className="flex h-full w-full items-center justify-center motion-safe:animate-slide-in"
          >
            <Suspense fallback={<Spinner className="h-10 w-10 text-amber-600" />}>
              <ShowMural />
            </Suspense>
          </div>
        ) : following && onMontage ? (
          <div
            key={`show:${following.index}:montage`}
            data-slide="montage:1"
            className="flex h-full w-full items-center justify-center motion-safe:animate-slide-in"
          >
            <ShowMontage paused={show.paused} />
          </div>
        ) : following && !show.item ? (
          showItem.missing ? (
            <Message title="This item is no longer in the gallery" text="The presenter will move on in a moment." />
          ) : (
            <Spinner className="h-10 w-10 text-amber-600" />
          )
        ) : show.item ? (
          <div
            key={following ? `show:${following.index}:${show.item.kind}:${show.item.id}` : show.step}
            data-slide={`${show.item.kind}:${show.item.id}`}
            className="flex h-full w-full items-center justify-center motion-safe:animate-slide-in"
          >
            {following && isDrawing(show.item) ? (
              <StrokeReplay
                artworkId={show.item.id}
                imageUrl={show.item.imageData ?? `/api/artworks/${show.item.id}/image/display`}
                alt={pictureAlt(show.item, 'Drawing')}
                paused={show.paused}
              />
            ) : (
              <Slide item={show.item} paused={show.paused} onPlaying={show.playing} onEnded={show.ended} />
            )}
          </div>
        ) : (
          <Message title="Waiting for the first contribution..." text="Approved items appear here as they arrive." />
        )}
      </div>

      <footer className="flex flex-col gap-4 px-4 pb-5 sm:flex-row sm:items-end sm:justify-between sm:gap-8 sm:px-8 sm:pb-7">
        <div className="min-w-0">
          <Caption show={show} count={count} following={following} special={special} />
          {following && show.item && <ReactionTotals className="mt-2" totals={show.item.reactions} />}
        </div>
        <div className="flex flex-col items-start gap-2 sm:items-end">
          {following && isReactable(following.current) && (
            <ReactionBar item={following.current} className="fixed inset-x-3 bottom-3 z-50 md:hidden" />
          )}
          <RevealControls
            paused={show.paused}
            fullscreen={fullscreen}
            onPrevious={show.previous}
            onNext={show.next}
            onTogglePause={show.togglePause}
            moves={!following || admin}
          />
          {/* room for the reaction bar under the controls on a phone */}
          {following && <div className="h-16 md:hidden" aria-hidden="true" />}
          <p className="hidden items-center gap-1.5 text-xs text-stone-500 lg:flex dark:text-stone-400">
            {(!following || admin) && (
              <>
                <Key>←</Key>
                <Key>→</Key> or <Key>Space</Key> move · <Key>P</Key> pause ·{' '}
              </>
            )}
            <Key>F</Key> full screen · <Key>Esc</Key> gallery
          </p>
        </div>
      </footer>

      {/* Always mounted, so screen readers hear each change. */}
      <p aria-live="polite" aria-atomic="true" className="sr-only">
        {onMural
          ? 'The group mural, drawn live by everyone'
          : special
            ? `${special.title}, by ${special.by}`
            : announcement(show, count)}
      </p>

      {following && <FloatingReactions item={following.current} />}

      {!following && show.item && show.item.kind !== 'media' && (
        <div className="absolute inset-x-0 bottom-0 h-1 motion-reduce:hidden" aria-hidden="true">
          <div
            key={show.step}
            className="h-full origin-left bg-gradient-to-r from-amber-500 to-rose-500 motion-safe:animate-slide-progress"
            style={{ animationDuration: `${SLIDE_MS}ms`, animationPlayState: show.paused ? 'paused' : 'running' }}
          />
        </div>
      )}
    </div>
  );
}

/** 'Story 3 of 12: The Move, by Robin', or 'Just arrived: Artwork: Sunset, by Sam'. */
function announcement(show: Slideshow, count: number): string {
  if (!show.item) return '';
  const { title, by, kind } = slideCaption(show.item);
  const place = show.place === null ? '' : ` ${show.place} of ${count}`;
  return `${show.arrived ? 'Just arrived: ' : ''}${kind}${place}: ${title}, by ${by}`;
}

/** A drawing from the studio, which the show replays stroke by stroke. */
const isDrawing = (item: ItemView): item is Extract<ItemView, { kind: 'artwork' }> =>
  item.kind === 'artwork' && item.isFromCanvas === 'true';

const MURAL_CAPTION = { title: 'The group mural', by: 'everyone, live', kind: 'Mural' };
const MONTAGE_CAPTION = { title: "The film of everyone's messages", by: 'everyone', kind: 'Montage' };
type Special = typeof MURAL_CAPTION | typeof MONTAGE_CAPTION;

/** The slide's title and maker, and its place in the deck. */
function Caption(props: { show: Slideshow; count: number; following?: ShowAnswer; special?: Special }) {
  const { show, count, following, special } = props;
  if (!show.item && !special) return <div />;
  const { title, by, kind } = special ?? slideCaption(show.item!);
  const place = show.place === null ? '' : ` ${show.place} of ${count}`;
  return (
    <div className="min-w-0">
      <p className="flex flex-wrap items-center gap-2 text-xs font-semibold tracking-wide text-stone-600 uppercase sm:text-sm dark:text-stone-400">
        {following && (
          <span
            data-testid="following-show"
            className="inline-flex items-center gap-1.5 rounded-full bg-amber-500 px-2.5 py-0.5 text-stone-950"
          >
            <span className="h-2 w-2 rounded-full bg-rose-600 motion-safe:animate-pulse" aria-hidden="true" /> Live show
          </span>
        )}
        {show.arrived && (
          <span className="inline-flex items-center gap-1 rounded-full bg-rose-600 px-2.5 py-0.5 text-white">
            <SparklesIcon className="h-3.5 w-3.5" /> Just arrived
          </span>
        )}
        <span>
          {kind}
          {place && ` ·${place}`}
        </span>
        {show.paused && (
          <span className="rounded-full bg-stone-800 px-2.5 py-0.5 text-white dark:bg-stone-200 dark:text-stone-900">
            Paused
          </span>
        )}
      </p>
      <h2 className="mt-1 line-clamp-2 font-display text-2xl font-bold break-words sm:text-4xl">{title}</h2>
      <p className="mt-1 text-base text-rose-700 sm:text-xl dark:text-rose-300">By {by}</p>
    </div>
  );
}

function Key({ children }: { children: string }) {
  return (
    <kbd className="rounded border border-stone-300 bg-white/70 px-1.5 py-0.5 font-sans text-[0.7rem] font-semibold text-stone-700 dark:border-stone-600 dark:bg-stone-800/70 dark:text-stone-200">
      {children}
    </kbd>
  );
}

function Message({ title, text }: { title: string; text: string }) {
  return (
    <div className="text-center">
      <p className="font-display text-3xl font-bold sm:text-5xl">{title}</p>
      <p className="mt-3 text-lg text-stone-600 dark:text-stone-400">{text}</p>
    </div>
  );
}
