import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  client,
  PASSWORDS,
  type SecondProcess,
  startSecondProcess,
  startTestServer,
  type TestServer,
} from '../../tests/support/server.ts';

let t: TestServer;
let second: SecondProcess;
let secondUrl: string;
beforeAll(async () => {
  t = await startTestServer({ TRUST_PROXY: 'loopback' });
  // a second API process on the same database, as production runs several
  second = await startSecondProcess(t, { TRUST_PROXY: 'loopback' });
  secondUrl = second.url;
});
afterAll(async () => {
  await second.close();
  await t.close();
});

let nextAddress = 1;
/** A fresh client address per test (the servers trust the loopback proxy's X-Forwarded-For). */
const freshAddress = () => `198.51.100.${nextAddress++}`;

async function login(base: string, password: string, address: string, cookie = '') {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify({ password }),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), setCookie: res.headers.getSetCookie() };
}

const visitorCookieOf = (setCookie: string[]) => setCookie.find((c) => c.startsWith('tg_visitor='))!.split(';')[0]!;

describe('guessing the admin key', () => {
  it('answers 429 with Retry-After after 10 wrong keys from one address, counted across processes', async () => {
    const address = freshAddress();
    const token = await t.login('guest');
    const headers = { authorization: 'Bearer wrong-key', 'x-forwarded-for': address };
    const logged = vi.spyOn(process.stderr, 'write');
    for (let i = 0; i < 10; i++) {
      // alternate the two processes: the count is shared
      const api = client(i % 2 ? secondUrl : t.url, token);
      expect((await api('DELETE', '/api/stories/1', undefined, headers)).status).toBe(403);
    }
    const limited = await client(t.url, token)('DELETE', '/api/stories/1', undefined, headers);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const lines = logged.mock.calls.map(([l]) => String(l)).filter((l) => l.includes('"security":"admin_key.failed"'));
    logged.mockRestore();
    expect(lines.length).toBeGreaterThanOrEqual(5);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 'warn', route: 'DELETE /api/stories/1' });
    expect(typeof line.clientRef).toBe('number');
    expect(lines.join('\n')).not.toContain('wrong-key');
    expect(lines.join('\n')).not.toContain(address);
  });
});

describe('guessing a password', () => {
  it('blocks an address after 10 failures, the right password included, with Retry-After', async () => {
    const address = freshAddress();
    for (let i = 0; i < 10; i++) expect((await login(t.url, 'bad', address)).status).toBe(401);
    const blocked = await login(secondUrl, PASSWORDS.guest, address);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.retryAfter)).toBeGreaterThan(0);
  });

  it('never limits right passwords: a room of 120 logging in at once from one address all get in', async () => {
    const office = freshAddress();
    const answers = await Promise.all(Array.from({ length: 120 }, () => login(t.url, PASSWORDS.guest, office)));
    expect(answers.map((a) => a.status).filter((s) => s !== 200)).toEqual([]);
  });

  it('counts IPv6 addresses of one /64 together', async () => {
    const prefix = `2001:db8:${nextAddress++}:1`;
    for (let i = 0; i < 10; i++) expect((await login(t.url, 'bad', `${prefix}::${i + 1}`)).status).toBe(401);
    expect((await login(t.url, 'bad', `${prefix}:ffff::9`)).status).toBe(429);
    expect((await login(t.url, PASSWORDS.guest, `2001:db8:${nextAddress++}:1::1`)).status).toBe(200);
  });

  it('lets a colleague behind the same office address in while someone there guesses', async () => {
    const office = freshAddress();
    const earlier = await login(t.url, PASSWORDS.guest, office);
    const colleague = visitorCookieOf(earlier.setCookie);
    for (let i = 0; i < 11; i++) await login(t.url, 'bad', office);
    expect((await login(t.url, PASSWORDS.guest, office)).status).toBe(429);
    expect((await login(t.url, PASSWORDS.admin, office, colleague)).status).toBe(200);
    // a made-up visitor cookie is not a known browser
    const forged = 'tg_visitor=00000000-0000-4000-8000-000000000000';
    expect((await login(t.url, PASSWORDS.guest, office, forged)).status).toBe(429);
  });

  it('caps failures against the passwords at 100 an hour over all addresses, for unknown browsers', async () => {
    const known = visitorCookieOf((await login(t.url, PASSWORDS.guest, freshAddress())).setCookie);
    const overall = async () =>
      (
        await t.db.pool.query<{ hits: number }>(
          `SELECT coalesce(sum(hits), 0)::int AS hits FROM rate_limits WHERE key = 'password:all:all'`,
        )
      ).rows[0]!.hits;
    // a success's own count is taken back after its answer is sent: read the table, not a tally
    for (let i = 0; (await overall()) < 100; i++) {
      await t.db.pool.query(`DELETE FROM rate_limits WHERE key LIKE 'password:addr:%'`);
      expect((await login(i % 2 ? secondUrl : t.url, 'bad', `203.0.113.${i % 9}`)).status).toBe(401);
    }
    const stranger = await login(t.url, PASSWORDS.guest, freshAddress());
    expect(stranger.status).toBe(429);
    expect(Number(stranger.retryAfter)).toBeGreaterThan(0);
    expect((await login(t.url, PASSWORDS.guest, freshAddress(), known)).status).toBe(200);
    await t.db.pool.query(`DELETE FROM rate_limits WHERE key = 'password:all:all'`);
  });
});

describe('writes', () => {
  it('limits comments per visitor: the 31st in ten minutes is 429', async () => {
    const guest = client(t.url, await t.login('guest'));
    const admin = client(t.url, await t.login('admin'));
    const story = await guest('POST', '/api/stories', { content: 'A story', authorName: 'Kim', isAnonymous: true });
    await admin('PATCH', `/api/admin/stories/${story.body.id}`, { status: 'approved' });
    const path = `/api/stories/${story.body.id}/comments`;
    for (let i = 0; i < 30; i++) {
      expect((await guest('POST', path, { authorName: 'Kim', content: `c${i}` })).status).toBe(201);
    }
    const limited = await guest('POST', path, { authorName: 'Kim', content: 'one more' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
  });

  it('limits submissions per visitor across processes: the 31st in an hour is 429, and nothing of it is kept', async () => {
    const token = await t.login('guest');
    const here = client(t.url, token);
    const there = client(secondUrl, token);
    for (let i = 0; i < 30; i++) {
      const send = i % 2 ? there : here;
      expect(
        (await send('POST', '/api/stories', { content: `Story ${i}`, authorName: 'Kim', isAnonymous: true })).status,
      ).toBe(201);
    }
    const limited = await here('POST', '/api/stories', {
      content: 'One too many',
      authorName: 'Kim',
      isAnonymous: true,
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
    expect(
      (await there('POST', '/api/stories', { content: 'One too many', authorName: 'Kim', isAnonymous: true })).status,
    ).toBe(429);
    const { rows } = await t.db.pool.query(`SELECT 1 FROM catalog_items WHERE content = 'One too many'`);
    expect(rows).toEqual([]);
  });

  it('limits likes and unlikes per visitor across processes: the 121st in a minute is 429', async () => {
    const admin = client(t.url, await t.login('admin'));
    const author = client(t.url, await t.login('guest'));
    const story = await author('POST', '/api/stories', {
      content: 'Liked a lot',
      authorName: 'Kim',
      isAnonymous: true,
    });
    await admin('PATCH', `/api/admin/stories/${story.body.id}`, { status: 'approved' });
    const token = await t.login('guest');
    const here = client(t.url, token);
    const there = client(secondUrl, token);
    const path = `/api/stories/${story.body.id}/likes`;
    for (let i = 0; i < 120; i++) {
      const res = await (i % 2 ? there : here)(i % 2 ? 'DELETE' : 'POST', path);
      expect(res.status).toBe(200);
    }
    const limited = await here('POST', path);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
    // a visitor's limit is theirs: another guest still likes
    expect((await client(secondUrl, await t.login('guest'))('POST', path)).status).toBe(200);
  });
});
