import type { Options } from 'express-rate-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../tests/support/database.ts';
import { PostgresStore } from './postgresStore.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db?.drop();
});

const sleepUntil = (at: number) => new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
const store = (prefix: string, windowMs: number) => {
  const made = new PostgresStore(db.pool, prefix);
  made.init({ windowMs } as Options);
  return made;
};

describe('the limit store (decision 086)', () => {
  it('counts a per-second limit over the last second, wherever the first hit fell', async () => {
    const perSecond = store('sliding:', 1000);
    expect((await perSecond.increment('k')).totalHits).toBe(1);
    // counted by now: the times below are measured from here, so they hold however slow the answer was
    const start = Date.now();
    // four hits in the second half of that second: five in all, each within a second of the next ones
    await sleepUntil(start + 700);
    for (let i = 0; i < 4; i++) await perSecond.increment('k');
    // past the first hit's second, but within a second of the four: a window opened by the first hit
    // would start again at 1 here, while the last second holds five hits and this is the sixth
    await sleepUntil(start + 1150);
    const fifth = await perSecond.increment('k');
    const sixth = await perSecond.increment('k');
    expect([fifth.totalHits, sixth.totalHits]).toEqual([5, 6]);
    expect((await perSecond.get('k'))?.totalHits).toBe(6);
  });

  it('counts every hit of a burst that many processes count at once', async () => {
    const processes = Array.from({ length: 13 }, () => store('burst:', 1000));
    const counted = await Promise.all(processes.map((p) => p.increment('k')));
    expect(counted.map((c) => c.totalHits).sort((a, b) => a - b)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
  });

  it('forgets hits older than the window, and refused hits count while they are in it', async () => {
    const perSecond = store('forget:', 1000);
    for (let i = 0; i < 7; i++) await perSecond.increment('k');
    await sleepUntil(Date.now() + 1200);
    expect((await perSecond.increment('k')).totalHits).toBe(1);
  });

  it('keeps a fixed window for long limits, and `add` and `decrement` on both kinds', async () => {
    const hourly = store('hourly:', 3_600_000);
    await hourly.add('k', 5);
    expect((await hourly.increment('k')).totalHits).toBe(6);
    await hourly.decrement('k');
    expect((await hourly.get('k'))?.totalHits).toBe(5);
    const perSecond = store('add:', 1000);
    await perSecond.add('k', 3);
    expect((await perSecond.increment('k')).totalHits).toBe(4);
    await perSecond.decrement('k');
    expect((await perSecond.get('k'))?.totalHits).toBe(3);
    await perSecond.resetKey('k');
    expect((await perSecond.increment('k')).totalHits).toBe(1);
  });
});
