import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { waitFor } from '../../tests/support/wait.ts';
import { verifiesInLine } from './verifyOffTheLoop.ts';

let t: TestServer;
let auditor: ReturnType<typeof client>;
beforeAll(async () => {
  t = await startTestServer({ AUDIT_STATEMENT_TIMEOUT_MS: '300' });
  auditor = client(t.url, await t.login('auditor'));
});
afterAll(() => t.close());

/** Runs `ask` while another transaction holds the chain locked, so that any read of it waits. */
async function whileChainLocked<T>(ask: () => Promise<T>, server: TestServer = t): Promise<T> {
  const holder = await server.db.pool.connect();
  try {
    await holder.query('BEGIN; LOCK TABLE event_chain IN ACCESS EXCLUSIVE MODE');
    return await ask();
  } finally {
    await holder.query('ROLLBACK');
    holder.release();
  }
}

describe('auditor reads are bounded (decision 101)', () => {
  it('answers 503, not 500, when a read of the log runs past AUDIT_STATEMENT_TIMEOUT_MS, and the next read works', async () => {
    for (const path of [
      '/api/admin/events?type=ItemLiked',
      '/api/admin/events/verify',
      '/api/admin/history/artwork/1',
    ]) {
      const res = await whileChainLocked(() => auditor('GET', path));
      expect(res.status, path).toBe(503);
      expect(res.body.message, path).toContain('took too long');
    }
    const after = await auditor('GET', '/api/admin/events');
    expect(after.status).toBe(200);
    expect((await auditor('GET', '/api/admin/events/verify')).body.ok).toBe(true);
  });
});

describe('verify on a thread of its own (decision 137)', () => {
  // a timeout far off, so that only what a test does can end a read
  let slow: TestServer;
  let auditorOfSlow: ReturnType<typeof client>;
  beforeAll(async () => {
    slow = await startTestServer({ AUDIT_STATEMENT_TIMEOUT_MS: '120000' });
    auditorOfSlow = client(slow.url, await slow.login('auditor'));
  });
  afterAll(() => slow?.close());

  /** The verify thread's backends now waiting on the chain's lock. */
  const waiting = async () =>
    (
      await slow.db.pool.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE application_name = 'tribute-verify' AND wait_event_type = 'Lock'`,
      )
    ).rows;

  /**
   * `count` verifies taken, the first on the thread waiting on the lock. Each request reaches the
   * queue on its own time: a fifth sent before the fourth has arrived would be taken in its place.
   */
  const inLine = async (count: number) => {
    await waitFor(async () => verifiesInLine() === count, 30_000);
    await waitFor(async () => (await waiting()).length === 1, 30_000);
  };

  it('answers 503, not 500, when its connection is cut mid-read, and the next verify works', async () => {
    const res = await whileChainLocked(async () => {
      const asked = auditorOfSlow('GET', '/api/admin/events/verify');
      // an answer before the cut is a failure of this test, reported by the expectations below
      asked.catch(() => {});
      // the verify's backend, waiting on the lock: cut it as a restart or an operator would
      await waitFor(async () => {
        const { rows } = await slow.db.pool.query<{ cut: boolean }>(
          `SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity
           WHERE application_name = 'tribute-verify' AND wait_event_type = 'Lock'`,
        );
        return rows.some((r) => r.cut);
      }, 30_000);
      return asked;
    }, slow);
    expect(res.status).toBe(503);
    expect(res.body.message).toContain('cannot reach its storage');
    expect(res.headers.get('retry-after')).toBe('5');
    expect((await auditorOfSlow('GET', '/api/admin/events/verify')).body.ok).toBe(true);
  });

  it('refuses a verify past the four running or waiting, at once, and answers those four', async () => {
    const { first, fifth } = await whileChainLocked(async () => {
      const first = Array.from({ length: 4 }, () => auditorOfSlow('GET', '/api/admin/events/verify'));
      for (const asked of first) asked.catch(() => {});
      // the first is on the thread, waiting on the lock; three wait for the thread
      await inLine(4);
      const fifth = await auditorOfSlow('GET', '/api/admin/events/verify');
      return { first, fifth };
    }, slow);
    expect(fifth.status).toBe(503);
    expect(fifth.body.message).toBe('The log is being verified already: try again in a moment');
    expect(fifth.headers.get('retry-after')).toBe('5');
    for (const res of await Promise.all(first)) expect(res.body.ok).toBe(true);
  });

  it('stops a verify whose auditor left, running or waiting, and frees its place at once', async () => {
    const token = await slow.login('auditor');
    const next = await whileChainLocked(async () => {
      const leaving = Array.from({ length: 4 }, () => new AbortController());
      const asked = leaving.map((left) =>
        fetch(`${slow.url}/api/admin/events/verify`, { headers: { 'x-session-token': token }, signal: left.signal })
          .then(() => 'answered')
          .catch(() => 'left'),
      );
      // the first is on the thread, waiting on the lock; three wait for the thread; a fifth is refused
      await inLine(4);
      expect((await auditorOfSlow('GET', '/api/admin/events/verify')).status).toBe(503);

      for (const left of leaving) left.abort();
      expect(await Promise.all(asked)).toEqual(['left', 'left', 'left', 'left']);
      // the thread is stopped, and its read with it, while the lock still holds
      await waitFor(async () => (await waiting()).length === 0, 30_000);
      // and a new verify is taken (onto a new thread, waiting on the lock), not refused
      const next = auditorOfSlow('GET', '/api/admin/events/verify');
      next.catch(() => {});
      await waitFor(async () => (await waiting()).length === 1, 30_000);
      return { next };
    }, slow);
    expect((await next.next).body.ok).toBe(true);
  });
});
