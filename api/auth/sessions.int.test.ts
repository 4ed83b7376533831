import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_CACHE_MS } from './sessions.ts';
import { client, PASSWORDS, startSecondProcess, startTestServer, type TestServer } from '../../tests/support/server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function loginWithCookies(password: string, cookie = '') {
  const res = await fetch(`${t.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify({ password }),
  });
  const body = (await res.json()) as { sessionToken: string };
  const cookies = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
  return { token: body.sessionToken, cookies, cacheControl: res.headers.get('cache-control') };
}
const sessionStatus = async (token: string) => (await client(t.url, token)('GET', '/api/auth/session')).status;

describe('sessions', () => {
  it('ends the browser’s previous session at a new login, and keeps its visitor id', async () => {
    const guest = await loginWithCookies(PASSWORDS.guest);
    const guestVisitor = (await client(t.url, guest.token)('GET', '/api/auth/session')).body.authorId;
    expect(guestVisitor).toMatch(/^a[0-9a-f]{32}$/);
    const admin = await loginWithCookies(PASSWORDS.admin, guest.cookies);
    expect(await sessionStatus(guest.token)).toBe(401);
    const after = await client(t.url, admin.token)('GET', '/api/auth/session');
    expect(after.body).toMatchObject({ userType: 'admin', authorId: guestVisitor });
  });

  it('ends a session idle too long, and one past its absolute lifetime', async () => {
    // sessions not yet looked up, so no process holds them in memory (SESSION_CACHE_MS)
    const idle = await t.login('admin');
    const old = await t.login('guest');
    await t.db.pool.query(
      `UPDATE sessions SET last_seen_at = now() - interval '3 hours' WHERE role = 'admin' AND last_seen_at > now() - interval '1 minute'`,
    );
    expect(await sessionStatus(idle)).toBe(401);
    await t.db.pool.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE role = 'guest'`);
    expect(await sessionStatus(old)).toBe(401);
  });

  it('purges expired sessions', async () => {
    await t.db.pool.query(
      `INSERT INTO sessions (token_hash, role, visitor_id, expires_at) VALUES ('stale', 'guest', gen_random_uuid(), now() - interval '1 day')`,
    );
    await t.login('guest');
    const { rowCount } = await t.db.pool.query(`SELECT 1 FROM sessions WHERE token_hash = 'stale'`);
    expect(rowCount).toBe(0);
  });

  it('ends the sessions opened with a password that has since changed', async () => {
    const admin = await t.login('admin');
    const guest = await t.login('guest');
    const rotated = await startSecondProcess(t, { ADMIN_PASSWORD: 'a-new-admin-password' });
    try {
      const api = (token: string) => client(rotated.url, token);
      expect((await api(admin)('GET', '/api/auth/session')).status).toBe(401);
      expect((await api(guest)('GET', '/api/auth/session')).status).toBe(200);
    } finally {
      await rotated.close();
    }
  });

  it('refuses a logged-out session at once on another process that had it in memory', async () => {
    const second = await startSecondProcess(t);
    try {
      const token = await t.login('guest');
      const there = client(second.url, token);
      // the second process has the session in memory now, for SESSION_CACHE_MS
      expect((await there('GET', '/api/auth/session')).status).toBe(200);
      expect((await client(t.url, token)('POST', '/api/auth/logout')).status).toBe(200);
      const started = Date.now();
      const after = await there('GET', '/api/auth/session');
      expect(after.status).toBe(401);
      expect(Date.now() - started).toBeLessThan(SESSION_CACHE_MS);
    } finally {
      await second.close();
    }
  });

  it('refuses a logged-out session at once on another process whose listener hears of it late', async () => {
    // a busy machine, made certain: the other process's listening backend is stopped while the
    // logout is sent and answered, so the message about it reaches that process after the request
    const second = await startSecondProcess(t, { DATABASE_URL: `${t.db.url}?application_name=second-process` });
    let stopped: number | undefined;
    try {
      const token = await t.login('guest');
      const there = client(second.url, token);
      expect((await there('GET', '/api/auth/session')).status).toBe(200);
      const { rows } = await t.db.pool.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE application_name = 'second-process' AND query = $1`,
        ['LISTEN "tribute_session_ended"'],
      );
      expect(rows).toHaveLength(1);
      stopped = rows[0]!.pid;
      process.kill(stopped, 'SIGSTOP');
      expect((await client(t.url, token)('POST', '/api/auth/logout')).status).toBe(200);
      const after = there('GET', '/api/auth/session');
      setTimeout(() => {
        if (stopped !== undefined) process.kill(stopped, 'SIGCONT');
        stopped = undefined;
      }, 300);
      expect((await after).status).toBe(401);
    } finally {
      if (stopped !== undefined) process.kill(stopped, 'SIGCONT');
      await second.close();
    }
  });

  it('looks a new session up once for the requests a page sends together (decision 149)', async () => {
    const token = await t.login('guest');
    const { pool } = t.server.deps;
    const lookups: string[] = [];
    const query = pool.query.bind(pool);
    pool.query = ((...args: Parameters<typeof pool.query>) => {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
      if (!/FROM sessions WHERE token_hash/.test(text)) return query(...args);
      lookups.push(text);
      // a busy database: every request of the page has arrived before the first lookup is answered
      return sleep(300).then(() => query(...args));
    }) as typeof pool.query;
    try {
      const statuses = await Promise.all(Array.from({ length: 8 }, () => sessionStatus(token)));
      expect(statuses).toEqual(Array(8).fill(200));
      expect(lookups).toHaveLength(1);
    } finally {
      pool.query = query;
    }
  });

  it('answers from memory for a while: a session deleted behind its back is still served briefly', async () => {
    // shows the cache is real, so the test above is about the logout message and not a database read
    const token = await t.login('guest');
    const api = client(t.url, token);
    expect((await api('GET', '/api/auth/session')).status).toBe(200);
    await t.db.pool.query(`DELETE FROM sessions`);
    expect((await api('GET', '/api/auth/session')).status).toBe(200);
  });

  it('answers with Cache-Control: no-store wherever a token or personal data travels', async () => {
    expect((await loginWithCookies(PASSWORDS.guest)).cacheControl).toBe('no-store');
    const admin = client(t.url, await t.login('admin'));
    for (const url of ['/api/admin/queue', '/api/admin/stories/pending', '/api/auth/session']) {
      expect((await admin('GET', url)).headers.get('cache-control')).toBe('no-store');
    }
  });
});
