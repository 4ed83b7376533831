import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../tests/support/database.ts';
import { waitFor } from '../../tests/support/wait.ts';
import { JobQueue, MEDIA_DEAD_LETTER, RETRY, type JobHandlers } from './jobQueue.ts';

/** Media jobs retry with backoff, then land in the dead-letter queue with their data (decision 082). */
let db: Awaited<ReturnType<typeof freshDatabase>>;
let queue: JobQueue | undefined;
const tries: number[] = [];
beforeAll(async () => {
  db = await freshDatabase();
  const handlers: JobHandlers = {
    'make-artwork-renditions': async () => {},
    'process-media': async () => {
      tries.push(Date.now());
      throw new Error('ffmpeg refused the file');
    },
    'sweep-uploads': async () => {},
    'make-montage': async () => {},
  };
  queue = await JobQueue.start(db.url, handlers);
});
afterAll(async () => {
  await queue?.stop();
  await db.drop();
});

describe('a media job that keeps failing', () => {
  it(
    'is tried 1 + retryLimit times with backoff, then kept in the dead-letter queue',
    { timeout: 120_000 },
    async () => {
      await queue!.send('process-media', { mediaId: 7 });
      const dead = await waitFor(async () => {
        const { rows } = await db.pool.query<{ data: { mediaId: number } }>(
          `SELECT data FROM pgboss.job WHERE name = $1`,
          [MEDIA_DEAD_LETTER],
        );
        return rows[0];
      }, 100_000);
      expect(dead.data.mediaId).toBe(7);
      expect(tries).toHaveLength(1 + RETRY.retryLimit);
      // each retry waits out its backoff: retryDelay * 2^n, plus up to as much again of jitter
      const gaps = tries.slice(1).map((at, n) => at - tries[n]!);
      gaps.forEach((gap, n) => expect(gap).toBeGreaterThanOrEqual(RETRY.retryDelay * 1000 * 2 ** n - 50));
      const { rows } = await db.pool.query<{ name: string; retry_backoff: boolean; dead_letter: string | null }>(
        `SELECT name, retry_backoff, dead_letter FROM pgboss.queue WHERE name IN ('process-media', 'make-artwork-renditions', 'sweep-uploads') ORDER BY name`,
      );
      expect(rows).toEqual([
        { name: 'make-artwork-renditions', retry_backoff: true, dead_letter: MEDIA_DEAD_LETTER },
        { name: 'process-media', retry_backoff: true, dead_letter: MEDIA_DEAD_LETTER },
        { name: 'sweep-uploads', retry_backoff: true, dead_letter: null },
      ]);
      // and the failed job itself is failed, not retried again
      const failed = await db.pool.query<{ state: string }>(
        `SELECT state FROM pgboss.job WHERE name = 'process-media'`,
      );
      expect(failed.rows.map((r) => r.state)).toEqual(['failed']);
    },
  );
});
