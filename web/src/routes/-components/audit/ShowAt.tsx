import { useQuery } from '@tanstack/react-query';
import { showAtOptions } from '../../../queries/audit.ts';
import { ReactionTotals } from '../show/ReactionBar.tsx';
import { AtPanel } from './parts.tsx';

const STATE_NAMES = { idle: 'Not running', running: 'Running', paused: 'Paused' } as const;

/** The show as it stood right after event `at`: its state, the item on screen, and every item's reactions so far. */
export function ShowAt({ at, enabled }: { at: number; enabled: boolean }) {
  const show = useQuery({ ...showAtOptions(at), enabled });
  const data = show.data;
  const current = data?.current ? data.items[data.index] : undefined;
  return (
    <AtPanel id="show-at-heading" title="The show" query={show}>
      {!data ? (
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">Loading…</p>
      ) : (
        <>
          <p className="mt-2 text-sm text-stone-700 dark:text-stone-300" data-testid="show-at-state">
            <span className="font-semibold">{STATE_NAMES[data.state]}</span>
            {current
              ? ` · item ${data.index + 1} of ${data.total}: ${current.title}`
              : data.state === 'idle'
                ? ` at event ${data.at}`
                : ''}
          </p>
          {data.items.length > 0 && (
            <ol className="mt-3 space-y-1.5" aria-label="Items in the show">
              {data.items.map((item, i) => (
                <li
                  key={`${item.kind}-${item.id}-${i}`}
                  aria-current={i === data.index ? 'step' : undefined}
                  className={`flex flex-wrap items-center justify-between gap-2 rounded-lg px-2.5 py-1.5 text-sm ${
                    i === data.index
                      ? 'bg-amber-100 font-semibold text-stone-900 dark:bg-stone-700 dark:text-amber-50'
                      : 'text-stone-700 dark:text-stone-300'
                  }`}
                >
                  <span className="min-w-0 truncate">
                    {i + 1}. {item.title}
                  </span>
                  <ReactionTotals totals={item.reactions} />
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </AtPanel>
  );
}
