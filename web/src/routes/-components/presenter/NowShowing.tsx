import { useState } from 'react';
import { useLiveMessages } from '../../../live/connection.ts';
import type { ShowAnswer } from '../../../queries/show.ts';
import { ReactionTotals } from '../show/ReactionBar.tsx';
import { isSpecial, ItemLine, keyOf, SpecialLine } from './ItemLine.tsx';
import type { ItemView } from '../../../../../contract/views.ts';

type Totals = Partial<Record<string, number>>;

/** The room's reactions per item, as the `reactions:burst` messages carry them while this page is open. */
export function useLiveReactionTotals(): Record<string, Totals> {
  const [liveTotals, setLiveTotals] = useState<Record<string, Totals>>({});
  useLiveMessages((message) => {
    if (message.event !== 'reactions:burst') return;
    const { kind, id, totals } = message.payload;
    setLiveTotals((all) => ({ ...all, [`${kind}:${id}`]: totals }));
  });
  return liveTotals;
}

/** What every screen shows now, where it stands in the show, and the room's reactions to it. */
export function NowShowing({
  show,
  current,
  liveTotals,
}: {
  show: ShowAnswer;
  current: { item: ItemView | undefined; missing: boolean };
  liveTotals: Record<string, Totals>;
}) {
  const special = isSpecial(show.current) ? show.current.kind : undefined;
  const totals = current.item ? (liveTotals[keyOf(current.item)] ?? current.item.reactions) : undefined;
  return (
    <section aria-label="Now showing" className="rounded-2xl bg-white p-4 shadow-sm dark:bg-stone-900">
      <p className="text-xs font-semibold tracking-wide text-stone-500 uppercase dark:text-stone-400">
        Now showing · {show.index + 1} of {show.total}
      </p>
      {special ? (
        <SpecialLine kind={special} large testId="presenter-current" />
      ) : current.item ? (
        <ItemLine item={current.item} large testId="presenter-current" />
      ) : (
        <p className="mt-1 text-stone-500">{current.missing ? 'No longer in the gallery' : 'Loading…'}</p>
      )}
      {!special && <ReactionTotals className="mt-3" totals={totals} />}
    </section>
  );
}
