import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { log } from '#api/observability/logger.ts';
import { EventStore } from '#events/store.ts';
import { insertLog } from '../bench/timeTravel.ts';
import { freshDatabase } from '../tests/support/database.ts';
import { meta } from '../tests/support/fixtures.ts';
import { waitFor } from '../tests/support/wait.ts';
import { catalogProjection } from './catalog/catalogProjection.ts';
import { chainSealer } from './chain/chainSealer.ts';
import { projections } from './index.ts';
import { check, rebuild } from './maintenance.ts';
import { ProjectionRunner, runBatch } from './runner.ts';
import { systemClock } from '#api/time.ts';

/** A log long enough that replaying it takes seconds (the bench's party: mostly likes). */
const EVENTS = 60_000;
/** Artwork 1 is approved in the bench's log. */
const ITEM = 1;

let db: Awaited<ReturnType<typeof freshDatabase>>;
let store: EventStore;

/** A database of the describe block's own with a log of `events`, sealed and folded. */
function withLog(events: number) {
  beforeAll(async () => {
    db = await freshDatabase();
    store = new EventStore(db.pool);
    await insertLog(db.pool, events);
    for (let read = -1; read !== 0;) ({ read } = await runBatch(store, chainSealer, 5000));
    for (let read = -1; read !== 0;) ({ read } = await runBatch(store, catalogProjection, 5000));
    await db.pool.query('ANALYZE');
  });
  afterAll(() => db.drop());
}

let likes = 0;
/** A like of artwork 1 by a new visitor, as the API appends it. */
async function like() {
  const visitorKey = `maintenance-${++likes}`;
  const { positions } = await store.append(
    `like-artwork-${ITEM}-${visitorKey}`,
    0,
    [{ type: 'ItemLiked', data: { kind: 'artwork', itemId: ITEM, visitorKey } }],
    meta(),
  );
  return positions[0]!;
}

async function likeCount(): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>(
    `SELECT like_count AS n FROM catalog_items WHERE kind = 'artwork' AND id = $1`,
    [ITEM],
  );
  return rows[0]!.n;
}

async function catalogSeq(): Promise<number> {
  const { rows } = await db.pool.query<{ seq: number }>(
    `SELECT seq FROM projection_checkpoints WHERE name = 'catalog'`,
  );
  return rows[0]!.seq;
}

async function liveMessageFor(count: number): Promise<boolean> {
  const { rows } = await db.pool.query(
    `SELECT 1 FROM live_messages WHERE event = 'likes:changed' AND (payload->>'id')::int = $1
       AND (payload->>'likeCount')::int = $2`,
    [ITEM, count],
  );
  return rows.length > 0;
}

/**
 * Runs `maintenance` with the runner (and the live outbox) going, likes artwork 1 while it replays,
 * and times how long the like takes to be sealed, folded into the catalog and written as a live message.
 */
async function likeDuring(maintenance: () => Promise<unknown>) {
  const runner = new ProjectionRunner(store, projections, log, systemClock);
  runner.duringBatch(catalogProjection.name, (events, db) => catalogProjection.live!(events, db, systemClock));
  await runner.start();
  try {
    const before = await likeCount();
    const started = performance.now();
    let ended = Infinity;
    const running = maintenance().finally(() => (ended = performance.now()));
    await sleep(300);
    const liked = performance.now();
    await like();
    await waitFor(async () => (await likeCount()) === before + 1 && (await liveMessageFor(before + 1)), 60_000, 10);
    const shown = performance.now();
    const result = await running;
    return { replayMs: ended - started, likeMs: shown - liked, shownBeforeTheEnd: shown < ended, result, before };
  } finally {
    await runner.stop();
  }
}

describe('projection maintenance beside the show', () => {
  withLog(EVENTS);

  it('a like made during a rebuild is sealed, folded and sent at once, and kept by the rebuilt model', async () => {
    const { replayMs, likeMs, shownBeforeTheEnd, result, before } = await likeDuring(() =>
      rebuild(store, catalogProjection),
    );
    console.log(`rebuild of ${EVENTS} events: ${replayMs.toFixed(0)} ms; the like shown after ${likeMs.toFixed(0)} ms`);
    expect(replayMs).toBeGreaterThan(1000);
    expect(likeMs).toBeLessThan(replayMs / 4);
    expect(shownBeforeTheEnd).toBe(true);
    expect(result).toBe(await catalogSeq());
    expect(await likeCount()).toBe(before + 1);
  });

  it('a like made during a check is sealed, folded and sent at once, and the rebuilt model equals the log at the checkpoint', async () => {
    const { replayMs, likeMs, shownBeforeTheEnd, result } = await likeDuring(() => check(store, catalogProjection));
    console.log(`check of ${EVENTS} events: ${replayMs.toFixed(0)} ms; the like shown after ${likeMs.toFixed(0)} ms`);
    expect(replayMs).toBeGreaterThan(1000);
    expect(likeMs).toBeLessThan(replayMs / 4);
    expect(shownBeforeTheEnd).toBe(true);
    expect(result).toEqual({ ok: true });
  });
});

describe('projection maintenance and the checkpoints', () => {
  withLog(200);

  it('rebuild stops at the catalog checkpoint: events not sealed, or sealed and not yet folded, stay out', async () => {
    const count = await likeCount();
    const seq = await catalogSeq();
    const { rows: head } = await db.pool.query<{ seq: number }>(`SELECT max(seq) AS seq FROM event_chain`);
    expect(head[0]!.seq).toBe(seq);

    await like();
    expect(await rebuild(store, catalogProjection)).toBe(seq);
    expect(await catalogSeq()).toBe(seq);
    expect(await likeCount()).toBe(count);

    await runBatch(store, chainSealer);
    const { rows: sealed } = await db.pool.query<{ seq: number }>(`SELECT max(seq) AS seq FROM event_chain`);
    expect(sealed[0]!.seq).toBe(seq + 1);
    expect(await rebuild(store, catalogProjection)).toBe(seq);
    expect(await catalogSeq()).toBe(seq);
    expect(await likeCount()).toBe(count);
    expect(await check(store, catalogProjection)).toEqual({ ok: true });

    await runBatch(store, catalogProjection);
    expect(await likeCount()).toBe(count + 1);
    expect(await rebuild(store, catalogProjection)).toBe(seq + 1);
    expect(await likeCount()).toBe(count + 1);
  });

  it('leaves no scratch schema behind, and drops one abandoned long ago', async () => {
    await db.pool.query(`CREATE SCHEMA scratch_1000000000_0123456789ab`);
    await db.pool.query(`CREATE TABLE scratch_1000000000_0123456789ab.catalog_items (LIKE public.catalog_items)`);
    const { rows: now } = await db.pool.query<{ at: string }>(
      `SELECT floor(extract(epoch FROM clock_timestamp()))::bigint::text AS at`,
    );
    const recent = `scratch_${now[0]!.at}_0123456789ab`;
    await db.pool.query(`CREATE SCHEMA ${recent}`);
    await check(store, catalogProjection);
    const { rows } = await db.pool.query<{ name: string }>(
      `SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE 'scratch%'`,
    );
    // one of another process still at work is left alone
    expect(rows.map((r) => r.name)).toEqual([recent]);
  });
});
