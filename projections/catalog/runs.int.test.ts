import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvent, LegacyEvent } from '#events/catalog.ts';
import { decodeRow, EventStore, type RecordedEvent } from '#events/store.ts';
import { freshDatabase } from '../../tests/support/database.ts';
import { approved, meta, submitted } from '../../tests/support/fixtures.ts';
import { chainSealer } from '../chain/chainSealer.ts';
import { runBatch } from '../runner.ts';
import { catalogProjection } from './catalogProjection.ts';

const at = '2025-09-12T18:00:00.000Z';
const image = { key: 'artworks/x.webp', contentType: 'image/webp', width: 10, height: 10, bytes: 100 };

/**
 * A log that changes its mind often, about few things: every kind of change the catalog folds, on
 * 12 artworks, the show and the mural, in a random order (it need not make sense beyond each
 * artwork being submitted once, only be folded the same way however it is cut into runs).
 */
function mixedLog(length: number): Array<DomainEvent | LegacyEvent> {
  let state = 11;
  const random = (n: number) => (state = (state * 48_271) % 2_147_483_647) % n;
  const artworkId = () => 1 + random(12);
  const target = () => ({ kind: 'artwork' as const, itemId: artworkId(), visitorKey: `v${random(4)}` });
  const makers: Array<() => DomainEvent> = [
    () => approved(artworkId()),
    () => ({
      type: 'ArtworkRejected',
      data: { artworkId: artworkId(), adminNotesRef: 1 + random(9), rejectedAt: at },
    }),
    () => ({ type: 'ArtworkArchived', data: { artworkId: artworkId(), archivedAt: at } }),
    () => ({ type: 'ArtworkUnarchived', data: { artworkId: artworkId(), unarchivedAt: at } }),
    () => ({ type: 'ArtworkRenditionsMade', data: { artworkId: artworkId(), display: image, thumbnail: image } }),
    () => ({ type: 'ItemLiked', data: target() }),
    () => ({ type: 'ItemLiked', data: target() }),
    () => ({ type: 'ItemLiked', data: target() }),
    () => ({ type: 'ItemUnliked', data: target() }),
    () => ({ type: 'ItemViewed', data: target() }),
    () => ({
      type: 'ReactionsCounted',
      data: { kind: 'artwork', itemId: artworkId(), counts: { '❤️': 1 + random(3), '👏': 1 } },
    }),
    () => ({ type: 'ShowStarted', data: { items: [{ kind: 'artwork', id: artworkId() }], index: 0 } }),
    () => ({ type: 'ShowMoved', data: { action: 'next', index: random(3), current: { kind: 'artwork', id: 1 } } }),
    () => ({ type: 'ShowPaused', data: {} }),
    () => ({ type: 'ShowResumed', data: {} }),
    () => ({
      type: 'MuralStrokeDrawn',
      data: {
        strokeId: 1 + random(20),
        visitorId: 'v1',
        tool: 'brush',
        color: '#000000',
        size: 4,
        opacity: 1,
        points: [[random(100), random(100)]],
        drawnAt: at,
      },
    }),
    () => ({ type: 'MuralStrokeErased', data: { strokeId: 1 + random(20), by: 'author', erasedAt: at } }),
    () => ({ type: 'MuralLocked', data: { lockedAt: at } }),
    () => ({ type: 'MuralUnlocked', data: { unlockedAt: at } }),
  ];
  const log: Array<DomainEvent | LegacyEvent> = Array.from({ length: length - 12 - 4 - 60 }, () =>
    makers[random(makers.length)]!(),
  );
  // each artwork is submitted once, somewhere in the log: what comes before its submission is dropped
  for (let id = 1; id <= 12; id++) log.splice(random(log.length), 0, submitted(id));
  // and a third of them deleted, somewhere: what comes after is dropped
  for (let id = 1; id <= 12; id += 3)
    log.splice(random(log.length), 0, { type: 'ArtworkDeleted', data: { artworkId: id, deletedAt: at } });
  // 40 comments, each posted once, on an item of its own; 20 removals naming the comment's item
  const itemOf = Array.from({ length: 41 }, () => artworkId());
  for (let commentId = 1; commentId <= 40; commentId++) {
    log.splice(random(log.length), 0, {
      type: 'CommentPosted',
      schemaVersion: 1,
      data: {
        kind: 'artwork',
        itemId: itemOf[commentId]!,
        commentId,
        authorName: 'Guest',
        content: `hi ${commentId}`,
        postedAt: at,
      },
    });
  }
  for (let i = 0; i < 20; i++) {
    const commentId = 1 + random(40);
    const data = { kind: 'artwork' as const, itemId: itemOf[commentId]!, commentId, removedAt: at };
    log.splice(random(log.length), 0, { type: 'CommentRemoved', data });
  }
  return log;
}

let db: Awaited<ReturnType<typeof freshDatabase>>;
let events: RecordedEvent[];
beforeAll(async () => {
  db = await freshDatabase();
  const store = new EventStore(db.pool);
  await store.append('catalog-runs', 0, mixedLog(1500), meta('admin'));
  for (let read = -1; read !== 0;) ({ read } = await runBatch(store, chainSealer, 5000));
  events = (await store.readSealed(0, 5000, db.pool)).map((e) => decodeRow(e.row));
});
afterAll(() => db.drop());

/** Folds the events, cut into `batches`, into a schema of their own under the catalog's table names. */
async function foldInto(schema: string, batches: RecordedEvent[][]) {
  const client = await db.pool.connect();
  try {
    await client.query(`CREATE SCHEMA ${schema}`);
    for (const t of catalogProjection.tables) {
      await client.query(`CREATE TABLE ${schema}.${t} (LIKE public.${t} INCLUDING ALL)`);
    }
    await client.query(`SET search_path TO ${schema}, public`);
    for (const batch of batches) await catalogProjection.apply(batch, client as pg.PoolClient);
  } finally {
    await client.query('RESET search_path');
    client.release();
  }
}

describe('the catalog folds a batch as it folds its events one at a time', () => {
  it('gives the same tables for 1,500 mixed events in one batch, in batches of 97, and one by one', async () => {
    expect(events).toHaveLength(1500);
    await foldInto(
      'one_by_one',
      events.map((e) => [e]),
    );
    await foldInto('one_batch', [events]);
    const batches = Array.from({ length: Math.ceil(events.length / 97) }, (_, i) => events.slice(i * 97, i * 97 + 97));
    await foldInto('batches', batches);
    const { rows: sizes } = await db.pool.query<{ items: number; likes: number; comments: number; strokes: number }>(
      `SELECT (SELECT count(*) FROM one_by_one.catalog_items)::int AS items,
         (SELECT count(*) FROM one_by_one.catalog_likes)::int AS likes,
         (SELECT count(*) FROM one_by_one.catalog_comments)::int AS comments,
         (SELECT count(*) FROM one_by_one.catalog_mural_strokes)::int AS strokes`,
    );
    // the log leaves something in each table to compare
    expect(Math.min(...Object.values(sizes[0]!))).toBeGreaterThan(0);
    for (const other of ['one_batch', 'batches']) {
      for (const t of catalogProjection.tables) {
        const { rows } = await db.pool.query(
          `(TABLE one_by_one.${t} EXCEPT ALL TABLE ${other}.${t}) UNION ALL (TABLE ${other}.${t} EXCEPT ALL TABLE one_by_one.${t})`,
        );
        expect(rows, `${other}.${t}`).toEqual([]);
      }
    }
  });
});
