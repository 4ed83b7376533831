import type pg from 'pg';
import type { CommittedListener } from '#projections/runner.ts';
import { messagesFor } from './changes.ts';
import type { Realtime } from './realtime.ts';

/** Pushes catalog changes to sockets once the catalog has committed them, batch after batch, in log order. */
export function livePublisher(pool: pg.Pool, realtime: Realtime): CommittedListener {
  let tail = Promise.resolve();
  return (projection, events) => {
    if (projection !== 'catalog') return;
    tail = tail
      .then(async () => {
        for (const message of await messagesFor(pool, events)) realtime.send(message);
      })
      .catch((error) => console.error('live publish:', error));
  };
}
