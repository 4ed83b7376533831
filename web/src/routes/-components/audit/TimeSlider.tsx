import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { chainStatusOptions, eventsAfter, galleryAtOptions, type ChainEvent } from '../../../queries/audit.ts';
import { describeType, formatTime } from './describe.ts';
import { MuralAt } from './MuralAt.tsx';
import { ShowAt } from './ShowAt.tsx';
import type { GalleryItemView } from '../../../../../contract/views.ts';

const SPEEDS = [1, 5, 15, 30, 60];
const TICK_MS = 200;
/** A quiet stretch longer than this (in replay time) is skipped, so a replay never stalls. */
const LONGEST_PAUSE_MS = 3000;

function title(item: GalleryItemView): string {
  if (item.title) return item.title;
  return item.kind === 'story' ? item.content.slice(0, 40) : `${item.kind} ${item.id}`;
}

interface TimeSliderProps {
  /** the seq a shared link opened at (decision 124); the head when none */
  initialAt?: number;
  /** where the slider rests, for the page's address (not called on every step of a replay) */
  onAt?: (at: number) => void;
}

/** The gallery, the show and the mural as they were at any seq, and a replay of a stretch of the log at 1x-60x. */
export function TimeSlider({ initialAt, onAt }: TimeSliderProps) {
  const status = useQuery(chainStatusOptions());
  const head = status.data?.head?.seq ?? 0;
  const [seq, setSeq] = useState<number | null>(initialAt ?? null);
  // a link to a seq beyond the head (another database, or a mistyped one) shows the head
  const at = seq === null || !status.isSuccess ? (seq ?? head) : Math.min(seq, head);
  const gallery = useQuery({ ...galleryAtOptions(at), enabled: status.isSuccess });
  const [speed, setSpeed] = useState(15);
  const [playing, setPlaying] = useState(false);
  const [replayFrom, setReplayFrom] = useState<number | null>(null);
  const timeline = useRef<ChainEvent[]>([]);
  const [current, setCurrent] = useState<ChainEvent | null>(null);

  // the event at the slider, for its time and type
  useEffect(() => {
    if (at < 1) return setCurrent(null);
    let cancelled = false;
    void eventsAfter(at - 1, 1).then((r) => !cancelled && setCurrent(r.events[0] ?? null));
    return () => {
      cancelled = true;
    };
  }, [at]);

  async function play() {
    const from = seq ?? 0;
    const loaded: ChainEvent[] = [];
    for (let after = from; after < head && loaded.length < 5000;) {
      const page = await eventsAfter(after, 1000);
      loaded.push(...page.events.filter((e) => e.seq <= head));
      if (page.next === null) break;
      after = page.next;
    }
    timeline.current = loaded;
    setReplayFrom(from);
    setPlaying(loaded.length > 0);
  }

  useEffect(() => {
    if (!playing) return;
    const events = timeline.current;
    let index = events.findIndex((e) => e.seq > (seq ?? 0));
    if (index < 0) return setPlaying(false);
    let clock = index > 0 ? Date.parse(events[index - 1]!.recordedAt) : Date.parse(events[index]!.recordedAt);
    const timer = setInterval(() => {
      clock += TICK_MS * speed;
      const next = events[index];
      if (next && Date.parse(next.recordedAt) - clock > LONGEST_PAUSE_MS * speed) clock = Date.parse(next.recordedAt);
      let reached: number | null = null;
      while (index < events.length && Date.parse(events[index]!.recordedAt) <= clock) reached = events[index++]!.seq;
      if (reached !== null) setSeq(reached);
      if (index >= events.length) setPlaying(false);
    }, TICK_MS);
    return () => clearInterval(timer);
    // the replay runs on its own clock once started; the slider moving is its output
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- seq is where it starts, not a reason to restart
  }, [playing, speed]);

  // the address follows where the slider rests, so a copied link opens here
  const report = useRef(onAt);
  report.current = onAt;
  useEffect(() => {
    if (!playing && seq !== null) report.current?.(seq);
  }, [seq, playing]);

  const items = gallery.data?.items ?? [];
  return (
    <section aria-labelledby="travel-heading" className="space-y-5">
      <div className="card p-5">
        <h2 id="travel-heading" className="font-display text-xl font-bold text-stone-900 dark:text-amber-50">
          The gallery over time
        </h2>
        <label htmlFor="travel-seq" className="field-label mt-4">
          Gallery right after event <span data-testid="travel-seq">{at}</span> of {head}
        </label>
        <input
          id="travel-seq"
          type="range"
          min={0}
          max={head}
          step={1}
          value={at}
          onChange={(event) => {
            setPlaying(false);
            setSeq(Number(event.target.value));
          }}
          className="w-full accent-rose-500"
        />
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400" aria-live="polite">
          {current ? `${describeType(current.type)} · ${formatTime(current.recordedAt)}` : 'Before the first event'}
        </p>
        <div className="mt-4 flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="travel-speed" className="field-label">
              Replay speed
            </label>
            <select
              id="travel-speed"
              className="field w-28"
              value={speed}
              onChange={(event) => setSpeed(Number(event.target.value))}
            >
              {SPEEDS.map((s) => (
                <option key={s} value={s}>
                  {s}×
                </option>
              ))}
            </select>
          </div>
          {playing ? (
            <button type="button" className="btn-secondary" onClick={() => setPlaying(false)}>
              Pause
            </button>
          ) : (
            <button type="button" className="btn-primary" onClick={() => void play()} disabled={at >= head}>
              Replay from here
            </button>
          )}
          {replayFrom !== null && (
            <p className="text-sm text-stone-600 dark:text-stone-400">
              Replaying from event {replayFrom} to {head}
            </p>
          )}
        </div>
      </div>
      {gallery.isError && (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">
          {gallery.error.message}
        </p>
      )}
      <p className="text-sm text-stone-600 dark:text-stone-400">
        {gallery.data
          ? `${gallery.data.total} ${gallery.data.total === 1 ? 'item' : 'items'} in the gallery at event ${gallery.data.at}`
          : 'Loading…'}
      </p>
      <ul
        className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5"
        aria-label="Gallery at this event"
        data-at={gallery.data?.at}
        aria-busy={gallery.isFetching}
      >
        {items.map((item) => (
          <li key={`${item.kind}-${item.id}`} className="card overflow-hidden">
            {item.kind !== 'story' && item.thumbnailUrl ? (
              <img src={item.thumbnailUrl} alt="" className="aspect-square w-full object-cover" loading="lazy" />
            ) : (
              <div className="flex aspect-square items-center justify-center bg-amber-100 p-3 text-center text-sm text-stone-700 dark:bg-stone-800 dark:text-stone-200">
                {item.kind === 'story' ? 'Story' : item.kind}
              </div>
            )}
            <div className="p-2.5">
              <p className="truncate text-sm font-semibold text-stone-900 dark:text-amber-50">{title(item)}</p>
              <p className="text-xs text-stone-600 dark:text-stone-400">
                {item.likeCount} {item.likeCount === 1 ? 'like' : 'likes'}
              </p>
            </div>
          </li>
        ))}
      </ul>
      <div className="grid items-start gap-5 lg:grid-cols-2">
        <ShowAt at={at} enabled={status.isSuccess} />
        <MuralAt at={at} enabled={status.isSuccess} />
      </div>
    </section>
  );
}
