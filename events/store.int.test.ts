import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../tests/support/database.ts';
import { approved, meta, submitted } from '../tests/support/fixtures.ts';
import { StaleVersion } from './errors.ts';
import { EventStore, START } from './store.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
let store: EventStore;
beforeAll(async () => {
  db = await freshDatabase();
  store = new EventStore(db.pool);
});
afterAll(() => db.drop());

describe('EventStore.append', () => {
  it('appends a batch at the expected version and reads it back in order', async () => {
    const { nextVersion, positions } = await store.append('artwork-1', 0, [submitted(1), approved(1)], meta());
    expect(nextVersion).toBe(2);
    expect(positions).toHaveLength(2);
    const events = await store.readStream('artwork-1');
    expect(events.map((e) => [e.type, e.streamVersion])).toEqual([
      ['ArtworkSubmitted', 1],
      ['ArtworkApproved', 2],
    ]);
  });

  it('refuses a stale expected version and writes nothing', async () => {
    await store.append('artwork-2', 0, [submitted(2)], meta());
    await expect(store.append('artwork-2', 0, [approved(2)], meta())).rejects.toBeInstanceOf(StaleVersion);
    await expect(store.append('artwork-2', 5, [approved(2)], meta())).rejects.toBeInstanceOf(StaleVersion);
    await expect(store.append('artwork-404', 3, [approved(404)], meta())).rejects.toBeInstanceOf(StaleVersion);
    expect(await store.readStream('artwork-2')).toHaveLength(1);
  });

  it('lets exactly one of two racing writers at the same version win', async () => {
    await store.append('artwork-3', 0, [submitted(3)], meta());
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => store.append('artwork-3', 1, [approved(3)], meta())),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await store.readStream('artwork-3')).toHaveLength(2);
  });

  it('validates event data against its schema before writing', async () => {
    const bad = { type: 'ArtworkApproved', data: { artworkId: 'x' } } as never;
    await expect(store.append('artwork-4', 'any', [bad], meta())).rejects.toThrow();
    expect(await store.readStream('artwork-4')).toHaveLength(0);
  });

  it('refuses to update or delete events in place', async () => {
    await expect(db.pool.query(`UPDATE events SET type = 'X'`)).rejects.toThrow(/append-only/);
    await expect(db.pool.query(`DELETE FROM events`)).rejects.toThrow(/append-only/);
  });
});

describe('EventStore.readAfter', () => {
  it('does not hand out an event whose transaction is still open, nor anything after it', async () => {
    const open = await db.pool.connect();
    try {
      await open.query('BEGIN');
      await store.append('artwork-50', 0, [submitted(50)], meta(), open);
      await store.append('artwork-51', 0, [submitted(51)], meta());
      const seen = await store.readAfter(START, 10_000);
      expect(seen.some((e) => e.streamId === 'artwork-50')).toBe(false);
      expect(seen.some((e) => e.streamId === 'artwork-51')).toBe(false);
      await open.query('COMMIT');
      const after = await store.readAfter(START, 10_000);
      const order = after.map((e) => e.streamId).filter((s) => s === 'artwork-50' || s === 'artwork-51');
      expect(order).toEqual(['artwork-50', 'artwork-51']);
    } finally {
      open.release();
    }
  });
});
