import { useCatchingUp } from '../live/connection.ts';

/** A small line while the server works through a backlog: what was just sent may take a moment to show. */
export function CatchingUp() {
  if (!useCatchingUp()) return null;
  return (
    <p
      role="status"
      className="bg-amber-100 px-4 py-1.5 text-center text-sm text-amber-900 dark:bg-amber-900/40 dark:text-amber-100"
    >
      Catching up: new posts and likes may take a moment to appear.
    </p>
  );
}
