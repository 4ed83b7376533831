import { useMemo } from 'react';
import type { ShowAction, ShowAnswer } from '../../../queries/show.ts';
import { isSpecial, ItemLine, keyOf, SpecialLine } from './ItemLine.tsx';
import { SmallButton } from './SmallButton.tsx';
import type { ItemView } from '../../../../../contract/views.ts';

/** What the show brings next, each with "Show now". */
export function UpNext({
  show,
  deck,
  busy,
  act,
}: {
  show: ShowAnswer;
  deck: readonly ItemView[] | undefined;
  busy: boolean;
  act: (action: ShowAction) => void;
}) {
  const byKey = useMemo(() => new Map(deck?.map((i) => [keyOf(i), i])), [deck]);
  return (
    <section aria-label="Up next">
      <h2 className="mb-2 text-sm font-semibold text-stone-700 dark:text-stone-300">Up next</h2>
      {show.upNext.length === 0 ? (
        <p className="text-sm text-stone-500 dark:text-stone-400">Nothing after this one.</p>
      ) : (
        <ol className="flex flex-col gap-1.5">
          {show.upNext.map((ref, n) => {
            const item = byKey.get(keyOf(ref));
            return (
              <li
                key={`${keyOf(ref)}:${n}`}
                className="flex items-center gap-2 rounded-xl bg-white/70 p-2 dark:bg-stone-900/70"
              >
                <div className="min-w-0 flex-1">
                  {isSpecial(ref) ? <SpecialLine kind={ref.kind} /> : item ? <ItemLine item={item} /> : keyOf(ref)}
                </div>
                <SmallButton disabled={busy} onClick={() => act({ action: 'goto', ...ref })}>
                  Show now
                </SmallButton>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
