import type pg from 'pg';
import type { RecordedEvent } from '#events/store.ts';
import { queueCounts } from '#projections/catalog/adminQueue.ts';
import { findItem, toView, type Kind } from '#projections/catalog/items.ts';
import type { CommittedListener } from '#projections/runner.ts';
import type { Realtime } from './realtime.ts';

type Change = { kind: Kind; id: number; gallery?: 'added' | 'removed'; queue: boolean };

/** What an event means for open screens. */
function changeOf(event: RecordedEvent): Change | undefined {
  switch (event.type) {
    case 'ArtworkSubmitted':
      return { kind: 'artwork', id: event.data.artworkId, queue: true };
    case 'ArtworkApproved':
    case 'ArtworkUnarchived':
      return { kind: 'artwork', id: event.data.artworkId, gallery: 'added', queue: true };
    case 'ArtworkRejected':
    case 'ArtworkArchived':
      return { kind: 'artwork', id: event.data.artworkId, gallery: 'removed', queue: true };
    case 'ArtworkRenditionsMade':
      return undefined;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/** Pushes catalog changes to sockets once the catalog has committed them, in log order. */
export function livePublisher(pool: pg.Pool, realtime: Realtime): CommittedListener {
  let tail = Promise.resolve();
  return (projection, events) => {
    if (projection !== 'catalog') return;
    // one batch after another, so cursors reach clients in order
    tail = tail.then(() => publish(pool, realtime, events)).catch((error) => console.error('live publish:', error));
  };
}

async function publish(pool: pg.Pool, realtime: Realtime, events: readonly RecordedEvent[]) {
  const changes = events.flatMap((e) => {
    const change = changeOf(e);
    return change && e.seq !== null ? [{ ...change, position: e.seq }] : [];
  });
  const counts = changes.some((c) => c.queue) ? await queueCounts(pool) : undefined;
  for (const c of changes) {
    if (c.gallery === 'added') {
      const row = await findItem(pool, c.kind, c.id, { admin: false });
      if (row) realtime.send('gallery:item-added', { position: c.position, kind: c.kind, item: toView(row, { admin: false }) });
    } else if (c.gallery === 'removed') {
      realtime.send('gallery:item-removed', { position: c.position, kind: c.kind, id: c.id });
    }
    if (c.queue && counts) realtime.send('admin:queue-changed', { position: c.position, kind: c.kind, ...counts });
  }
}
