import { useEffect, useRef, type FormEvent } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { EVENT_GROUPS } from '../../../../../contract/eventTypes.ts';
import { eventStreamOptions, type EventFilters } from '../../../queries/audit.ts';
import { ITEM_KINDS, KINDS } from '../../../queries/itemKinds.ts';
import { describeActor, describeType, formatTime, itemOf, noteOf } from './describe.ts';
import { Labelled, QueryError } from './parts.tsx';

const toIso = (local: string) => (local ? new Date(local).toISOString() : undefined);
/** An instant as a `datetime-local` field shows it, in this browser's time zone. */
function toLocal(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

interface EventStreamProps {
  /** the filters in force (the page's address holds them, decision 124) */
  filters: EventFilters;
  onFilters: (next: EventFilters) => void;
}

/** The log newest first, filtered by kind, type, actor and time, loading more as it scrolls. */
export function EventStream({ filters, onFilters }: EventStreamProps) {
  const stream = useInfiniteQuery(eventStreamOptions(filters));
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = stream;

  useEffect(() => {
    const node = sentinel.current;
    if (!node) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && hasNextPage && !isFetchingNextPage) void fetchNextPage();
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim() || undefined;
    onFilters({
      kind: text('kind') as EventFilters['kind'],
      type: text('type'),
      actor: text('actor'),
      since: toIso(String(form.get('since') ?? '')),
      until: toIso(String(form.get('until') ?? '')),
    });
  }

  const events = stream.data?.pages.flatMap((p) => p.events) ?? [];
  return (
    <section aria-labelledby="stream-heading">
      <h2 id="stream-heading" className="sr-only">
        Event stream
      </h2>
      <form
        key={JSON.stringify(filters)}
        onSubmit={onSubmit}
        className="card grid gap-3 p-4 sm:grid-cols-2 lg:grid-cols-6"
        aria-label="Filters"
      >
        <Labelled id="f-kind" label="Kind">
          <select id="f-kind" name="kind" className="field" defaultValue={filters.kind ?? ''}>
            <option value="">Any</option>
            {KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {ITEM_KINDS[kind].Nouns}
              </option>
            ))}
          </select>
        </Labelled>
        <Labelled id="f-type" label="Type">
          <select id="f-type" name="type" className="field" defaultValue={filters.type ?? ''}>
            <option value="">Any</option>
            {EVENT_GROUPS.map((group) => (
              <optgroup key={group.label} label={group.label}>
                {Object.entries(group.words).map(([type, words]) => (
                  <option key={type} value={type}>
                    {words}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </Labelled>
        <Labelled id="f-actor" label="Actor name">
          <input
            id="f-actor"
            name="actor"
            className="field"
            maxLength={60}
            placeholder="e.g. Ada"
            defaultValue={filters.actor ?? ''}
          />
        </Labelled>
        <Labelled id="f-since" label="From">
          <input
            id="f-since"
            name="since"
            type="datetime-local"
            className="field"
            defaultValue={toLocal(filters.since)}
          />
        </Labelled>
        <Labelled id="f-until" label="To">
          <input
            id="f-until"
            name="until"
            type="datetime-local"
            className="field"
            defaultValue={toLocal(filters.until)}
          />
        </Labelled>
        <div className="flex items-end">
          <button type="submit" className="btn-primary w-full">
            Filter
          </button>
        </div>
      </form>

      <QueryError error={stream.error} />
      <ol className="mt-4 space-y-2" aria-label="Events, newest first">
        {events.map((e) => {
          const item = itemOf(e.streamId, e.data);
          const note = noteOf(e.data, e.personal);
          return (
            <li key={e.seq} className="card flex flex-wrap items-baseline gap-x-3 gap-y-1 px-4 py-3 text-sm">
              <span className="rounded-full bg-amber-100 px-2 py-0.5 font-mono text-xs text-amber-900 dark:bg-stone-800 dark:text-amber-200">
                #{e.seq}
              </span>
              <span className="font-semibold text-stone-900 dark:text-amber-50">{describeType(e.type)}</span>
              {item && (
                <Link
                  to="/audit"
                  search={{ tab: 'timeline', kind: item.kind, id: item.id }}
                  className="text-amber-800 underline decoration-amber-300 underline-offset-2 hover:text-rose-700 dark:text-amber-300"
                >
                  {item.kind} {item.id}
                </Link>
              )}
              <span className="text-stone-600 dark:text-stone-400">by {describeActor(e.actor)}</span>
              <time dateTime={e.recordedAt} className="ml-auto text-xs text-stone-500 dark:text-stone-400">
                {formatTime(e.recordedAt)}
              </time>
              {note && <p className="w-full truncate text-stone-600 italic dark:text-stone-300">“{note}”</p>}
            </li>
          );
        })}
      </ol>
      {stream.isSuccess && events.length === 0 && (
        <p className="mt-6 text-center text-stone-600 dark:text-stone-400">No events match these filters.</p>
      )}
      <div ref={sentinel} className="mt-4 flex justify-center">
        {hasNextPage && (
          <button
            type="button"
            className="btn-secondary"
            onClick={() => void fetchNextPage()}
            disabled={isFetchingNextPage}
          >
            {isFetchingNextPage ? 'Loading…' : 'Load older events'}
          </button>
        )}
      </div>
    </section>
  );
}
