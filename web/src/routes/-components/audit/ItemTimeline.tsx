import { type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { itemHistoryOptions } from '../../../queries/audit.ts';
import { ITEM_KINDS, KINDS } from '../../../queries/itemKinds.ts';
import { describeActor, describeType, formatTime } from './describe.ts';
import { Labelled, QueryError } from './parts.tsx';

const NOTE_KEYS = ['adminNotes', 'content'];

/** One item's life: submitted, renditions made, approved by whom with what note, liked, commented… */
export function ItemTimeline({ kind, id }: { kind?: string; id?: number }) {
  const navigate = useNavigate();
  const history = useQuery({ ...itemHistoryOptions(kind ?? 'artwork', id ?? 0), enabled: !!kind && !!id });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void navigate({
      to: '/audit',
      search: { tab: 'timeline', kind: String(form.get('kind')), id: Number(form.get('id')) || undefined },
    });
  }

  const item = history.data?.item;
  return (
    <section aria-labelledby="timeline-heading">
      <form onSubmit={onSubmit} className="card flex flex-wrap items-end gap-3 p-4" aria-label="Find an item">
        <Labelled id="t-kind" label="Kind">
          <select id="t-kind" name="kind" className="field" defaultValue={kind ?? 'artwork'}>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {ITEM_KINDS[k].Noun}
              </option>
            ))}
          </select>
        </Labelled>
        <Labelled id="t-id" label="Number">
          <input id="t-id" name="id" type="number" min={1} className="field w-32" defaultValue={id ?? ''} />
        </Labelled>
        <button type="submit" className="btn-primary">
          Show timeline
        </button>
      </form>

      <h2 id="timeline-heading" className="mt-6 font-display text-2xl font-bold text-stone-900 dark:text-amber-50">
        {kind && id ? `${kind[0]!.toUpperCase()}${kind.slice(1)} ${id}` : 'Item timeline'}
        {item?.title ? `: ${item.title}` : ''}
      </h2>
      {item && (
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          Now {item.archived ? 'archived' : (item.status ?? 'unknown')} · {item.likeCount} likes · {item.commentCount}{' '}
          comments
        </p>
      )}
      <QueryError error={history.error} />
      {history.data && (
        <ol
          className="relative mt-6 space-y-5 border-l-2 border-amber-200 pl-6 dark:border-stone-700"
          aria-label="Timeline"
        >
          {history.data.events.map((e) => {
            // inline in events from before, else the erasable value beside the event (null once erased)
            const note = NOTE_KEYS.map((k) => e.data[k] ?? e.personal?.[`${k}Ref`]).find(
              (v): v is string => typeof v === 'string' && !!v,
            );
            return (
              <li key={e.seq} className="relative">
                <span
                  aria-hidden="true"
                  className="absolute top-1.5 -left-[31px] h-3 w-3 rounded-full bg-gradient-to-br from-amber-400 to-rose-500 ring-4 ring-amber-50 dark:ring-stone-950"
                />
                <p className="font-semibold text-stone-900 dark:text-amber-50">
                  {describeType(e.type)} <span className="font-normal">by {describeActor(e.actor)}</span>
                </p>
                <p className="text-xs text-stone-500 dark:text-stone-400">
                  <time dateTime={e.recordedAt}>{formatTime(e.recordedAt)}</time> · seq {e.seq}
                </p>
                {note && (
                  <p className="mt-1 rounded-xl bg-amber-50 px-3 py-2 text-sm text-stone-700 dark:bg-stone-800 dark:text-stone-200">
                    {e.type.endsWith('Approved') || e.type.endsWith('Rejected') ? 'Note: ' : ''}“{note}”
                  </p>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
