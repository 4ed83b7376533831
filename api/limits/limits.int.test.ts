import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ADMIN_KEY,
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

/** `npm run seed` as its own process, on the test server's database. */
function runSeed(args: string[], env: Record<string, string>) {
  const root = path.resolve(import.meta.dirname, '../..');
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'scripts/seed.ts'), ...args], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'test', ...env },
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
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

describe('guessing the admin key from many addresses', () => {
  it('turns away the guessing addresses only: the right key from another address still works', async () => {
    const token = await t.login('guest');
    const api = client(t.url, token);
    for (let n = 0; n < 10; n++) {
      const headers = { authorization: 'Bearer wrong-key', 'x-forwarded-for': freshAddress() };
      for (let i = 0; i < 10; i++) expect((await api('DELETE', '/api/stories/1', undefined, headers)).status).toBe(403);
      const refused = await api('DELETE', '/api/stories/1', undefined, {
        ...headers,
        authorization: `Bearer ${ADMIN_KEY}`,
      });
      expect(refused.status).toBe(429);
    }
    // past the key check: the story does not exist
    const right = { authorization: `Bearer ${ADMIN_KEY}`, 'x-forwarded-for': freshAddress() };
    expect(await api('DELETE', '/api/stories/999999', undefined, right)).toMatchObject({
      status: 404,
      body: { message: 'Story not found' },
    });
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

  it('lets a first-time browser in with the right password after 100 wrong ones from 10 other addresses', async () => {
    await t.db.pool.query(`DELETE FROM rate_limits WHERE key = 'password:all:all'`);
    const logged = vi.spyOn(process.stderr, 'write');
    const guessers = Array.from({ length: 10 }, freshAddress);
    for (const [n, address] of guessers.entries()) {
      for (let i = 0; i < 10; i++) {
        expect((await login(i % 2 ? secondUrl : t.url, 'bad', address)).status).toBe(401);
      }
      // each guessing address is turned away for the rest of its minute, the right password included
      const refused = await login(n % 2 ? secondUrl : t.url, PASSWORDS.guest, address);
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    }
    const stranger = await login(t.url, PASSWORDS.guest, freshAddress());
    expect(stranger.status).toBe(200);
    expect((await login(secondUrl, PASSWORDS.admin, freshAddress())).status).toBe(200);
    const lines = logged.mock.calls.map(([l]) => String(l));
    logged.mockRestore();
    // the count over everyone raised the alarm once
    expect(lines.filter((l) => l.includes('"security":"guessing.widespread"'))).toHaveLength(1);
    // a tool beside the server logs in like a first-time browser: `npm run seed` still works
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-seed-'));
    try {
      const seed = await runSeed(['--artworks', '1', '--pending', '0'], {
        DATABASE_URL: t.db.url,
        DATA_DIR: dataDir,
        GALLERY_PASSWORD: PASSWORDS.guest,
        ADMIN_PASSWORD: PASSWORDS.admin,
      });
      expect(seed.stderr).toBe('');
      expect(seed.code).toBe(0);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('holds one address to 100 failures an hour, a minute apart or not', async () => {
    const address = freshAddress();
    for (let i = 0; i < 100; i++) {
      // the minute's bucket emptied, as a patient guesser would see it
      await t.db.pool.query(`DELETE FROM rate_limits WHERE key = $1`, [`password:addr:${address}`]);
      expect((await login(t.url, 'bad', address)).status).toBe(401);
    }
    await t.db.pool.query(`DELETE FROM rate_limits WHERE key = $1`, [`password:addr:${address}`]);
    const refused = await login(t.url, PASSWORDS.guest, address);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(60);
  });
});

describe('a guesser that keeps knocking', () => {
  it('is refused without counting again: one security line per full bucket, not one per knock', async () => {
    const address = freshAddress();
    for (let i = 0; i < 10; i++) expect((await login(t.url, 'bad', address)).status).toBe(401);
    const logged = vi.spyOn(process.stderr, 'write');
    const knocks = [];
    for (let i = 0; i < 20; i++) knocks.push(await login(t.url, i % 2 ? 'bad' : PASSWORDS.guest, address));
    const lines = logged.mock.calls.map(([l]) => String(l)).filter((l) => l.includes('"security":"login.limited"'));
    logged.mockRestore();
    expect(knocks.map((k) => k.status)).toEqual(Array(20).fill(429));
    expect(knocks.every((k) => Number(k.retryAfter) > 0 && Number(k.retryAfter) <= 60)).toBe(true);
    expect(lines.length).toBe(1);
    // the other process learns it from the shared count, and another address is not held back
    expect((await login(secondUrl, PASSWORDS.guest, address)).status).toBe(429);
    expect((await login(t.url, PASSWORDS.guest, freshAddress())).status).toBe(200);
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
