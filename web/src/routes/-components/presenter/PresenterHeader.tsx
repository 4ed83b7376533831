import type { WakeLockState } from '../../../lib/wakeLock.ts';
import type { ShowState } from '../../../queries/show.ts';

/** The title, the show's state, how many screens follow, and whether this screen stays on. */
export function PresenterHeader({
  state,
  followers,
  awake,
}: {
  state: ShowState;
  followers: number | null;
  awake: WakeLockState;
}) {
  return (
    <>
      <header className="flex items-center justify-between gap-3">
        <h1 className="font-display text-2xl font-bold text-stone-900 dark:text-amber-50">Presenter</h1>
        <p className="flex items-center gap-2 text-sm text-stone-600 dark:text-stone-400">
          <StateBadge state={state} />
          <span data-testid="followers" className="whitespace-nowrap">
            {followers === null ? '…' : followers} {followers === 1 ? 'screen' : 'screens'} following
          </span>
        </p>
      </header>
      {awake === 'held' && (
        <p data-testid="wake-lock" className="-mt-3 text-xs text-stone-500 dark:text-stone-400">
          This screen stays on while this page is open.
        </p>
      )}
    </>
  );
}

function StateBadge({ state }: { state: ShowState }) {
  const look = {
    idle: 'bg-stone-200 text-stone-700 dark:bg-stone-800 dark:text-stone-300',
    running: 'bg-emerald-700 text-white',
    paused: 'bg-amber-500 text-stone-950',
  }[state];
  const label = { idle: 'Not running', running: 'Live', paused: 'Paused' }[state];
  return (
    <span data-testid="show-state" className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${look}`}>
      {label}
    </span>
  );
}
