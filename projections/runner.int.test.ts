import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { log } from '#api/observability/logger.ts';
import { verifyChain } from '#events/chain.ts';
import { EventStore } from '#events/store.ts';
import { freshDatabase } from '../tests/support/database.ts';
import { waitFor } from '../tests/support/wait.ts';
import { approved, meta, submitted } from '../tests/support/fixtures.ts';
import { catalogProjection } from './catalog/catalogProjection.ts';
import { chainSealer } from './chain/chainSealer.ts';
import { check, rebuild } from './maintenance.ts';
import type { Projection } from './projection.ts';
import { ProjectionRunner } from './runner.ts';
import { systemClock } from '#api/time.ts';

/** Records every position it is given; a second application of one would break the primary key. */
const witness: Projection = {
  name: 'witness',
  canHandle: ['ArtworkSubmitted', 'ArtworkApproved'],
  tables: ['witness_seen'],
  rebuildable: true,
  async apply(events, db) {
    await db.query(`INSERT INTO witness_seen (position) SELECT unnest($1::bigint[])`, [events.map((e) => e.position)]);
  },
};

let db: Awaited<ReturnType<typeof freshDatabase>>;
let store: EventStore;
beforeAll(async () => {
  db = await freshDatabase();
  await db.pool.query(`CREATE TABLE witness_seen (position bigint PRIMARY KEY)`);
  store = new EventStore(db.pool);
});
afterAll(() => db.drop());

describe('ProjectionRunner under concurrent writers', () => {
  it('applies every event exactly once, and the read model equals a full replay', async () => {
    const runner = new ProjectionRunner(store, [chainSealer, catalogProjection, witness], log, systemClock);
    await runner.start();
    const WRITERS = 8;
    const EACH = 500;
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        for (let i = 0; i < EACH / 2; i++) {
          const id = 100_000 + w * 10_000 + i;
          await store.append(`artwork-${id}`, 0, [submitted(id)], meta());
          await store.append(`artwork-${id}`, 1, [approved(id)], meta());
        }
      }),
    );
    await runner.wake();
    await waitFor(async () => (await count('witness_seen')) === WRITERS * EACH);
    await runner.stop();

    const { rows: missing } = await db.pool.query(
      `SELECT e.position FROM events e LEFT JOIN witness_seen w USING (position) WHERE w.position IS NULL`,
    );
    expect(missing).toEqual([]);
    expect(await count('catalog_items')).toBe(WRITERS * (EACH / 2));
    expect(await check(store, catalogProjection)).toEqual({ ok: true });
    expect(await check(store, witness)).toEqual({ ok: true });
    expect(await verifyChain(db.pool)).toMatchObject({ ok: true, checked: WRITERS * EACH });
  });

  it('rebuild gives back the same read model', async () => {
    const before = await db.pool.query(`SELECT * FROM catalog_items ORDER BY kind, id`);
    await rebuild(store, catalogProjection);
    const after = await db.pool.query(`SELECT * FROM catalog_items ORDER BY kind, id`);
    expect(after.rows).toEqual(before.rows);
  });

  it('check reports a read model that drifted from the log', async () => {
    await db.pool.query(`UPDATE catalog_items SET title = 'tampered' WHERE id = (SELECT min(id) FROM catalog_items)`);
    const result = await check(store, catalogProjection);
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).toContain('tampered');
    await rebuild(store, catalogProjection);
    expect(await check(store, catalogProjection)).toEqual({ ok: true });
  });
});

async function count(table: string): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return rows[0]!.n;
}
