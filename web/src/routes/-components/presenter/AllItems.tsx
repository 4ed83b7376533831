import type { ShowAction, ShowAnswer } from '../../../queries/show.ts';
import { ItemLine, keyOf } from './ItemLine.tsx';
import { SmallButton } from './SmallButton.tsx';
import type { ItemView } from '../../../../../contract/views.ts';

/** The approved items neither showing nor up next, newest approvals first: what arrived during the meeting is at the top, to put next. */
export function notInShow(deck: readonly ItemView[] | undefined, show: ShowAnswer | undefined): ItemView[] {
  const upcoming = new Set(show?.upNext.map(keyOf));
  const approvedAt = (item: ItemView) => item.approvedAt ?? '';
  return [...(deck ?? [])]
    .filter((i) => !upcoming.has(keyOf(i)) && (!show?.current || keyOf(i) !== keyOf(show.current)))
    .sort((a, b) => approvedAt(b).localeCompare(approvedAt(a)));
}

/** Every other approved item, folded away, each to put next or show now. */
export function AllItems({
  others,
  busy,
  act,
}: {
  others: readonly ItemView[];
  busy: boolean;
  act: (action: ShowAction) => void;
}) {
  return (
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
            <SmallButton disabled={busy} onClick={() => act({ action: 'queue', kind: item.kind, id: item.id })}>
              Put next
            </SmallButton>
            <SmallButton disabled={busy} onClick={() => act({ action: 'goto', kind: item.kind, id: item.id })}>
              Show now
            </SmallButton>
          </li>
        ))}
      </ul>
    </details>
  );
}
