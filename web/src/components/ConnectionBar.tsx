import { useEffect, useState } from 'react';
import { retryConnection, useConnection } from '../live/connection.ts';

/** A connection lost for less than this is not worth a word: the socket is usually back by then. */
const QUIET_MS = 1500;

/**
 * A line under the header while the live connection is down: offline (the device has no network) or
 * reconnecting (the server went away, e.g. a restart), with a button to try at once. What was missed
 * arrives when the connection is back, so nothing needs a reload.
 */
export function ConnectionBar() {
  const state = useConnection();
  const down = state === 'offline' || state === 'reconnecting';
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!down) return setShown(false);
    const timer = setTimeout(() => setShown(true), QUIET_MS);
    return () => clearTimeout(timer);
  }, [down]);
  if (!down || !shown) return null;
  return (
    <div
      role="status"
      data-connection={state}
      className="flex flex-wrap items-center justify-center gap-x-3 gap-y-1 bg-stone-800 px-4 py-2 text-center text-sm text-stone-50 dark:bg-stone-200 dark:text-stone-900"
    >
      <span>
        {state === 'offline'
          ? 'You are offline. New posts and likes will appear when you are back online.'
          : 'Reconnecting… New posts and likes will appear once the connection is back.'}
      </span>
      {state === 'reconnecting' && (
        <button
          type="button"
          onClick={retryConnection}
          className="rounded-full border border-current px-3 py-0.5 text-xs font-semibold hover:bg-white/10"
        >
          Try now
        </button>
      )}
    </div>
  );
}
