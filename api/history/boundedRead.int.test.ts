import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';

let t: TestServer;
let auditor: ReturnType<typeof client>;
beforeAll(async () => {
  t = await startTestServer({ AUDIT_STATEMENT_TIMEOUT_MS: '300' });
  auditor = client(t.url, await t.login('auditor'));
});
afterAll(() => t.close());

/** Runs `ask` while another transaction holds the chain locked, so that any read of it waits. */
async function whileChainLocked<T>(ask: () => Promise<T>): Promise<T> {
  const holder = await t.db.pool.connect();
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
