import type { MuralState } from '../../../queries/mural.ts';

/** The mural's state, where everyone drawing sees it. */
export function MuralStateBadge({ state }: { state: MuralState }) {
  const text = { open: 'Open: draw away', locked: 'Locked for now', frozen: 'Frozen: it is an artwork now' }[state];
  const tone = {
    open: 'bg-green-100 text-green-800 dark:bg-green-900/50 dark:text-green-200',
    locked: 'bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-200',
    frozen: 'bg-sky-100 text-sky-800 dark:bg-sky-900/50 dark:text-sky-200',
  }[state];
  return (
    <span role="status" data-testid="mural-state" className={`rounded-full px-3 py-1 text-sm font-medium ${tone}`}>
      {text}
    </span>
  );
}
