import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seeder } from '../../tests/support/seedGallery.ts';
import { client, startTestServer, type TestServer } from '../../tests/support/server.ts';
import { WEB_DIR } from '../app.ts';

describe('security headers', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  function expectHardened(headers: Headers) {
    const csp = headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toContain("media-src 'self' blob:");
    expect(csp).toContain("object-src 'none'");
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('x-frame-options')).toBe('DENY');
    expect(headers.get('referrer-policy')).toBe('same-origin');
    expect(headers.get('x-powered-by')).toBeNull();
    // plain http in development and tests: no HSTS, no upgrade of every address to https
    expect(headers.get('strict-transport-security')).toBeNull();
    expect(csp).not.toContain('upgrade-insecure-requests');
  }

  it('are on API answers, errors and the health check', async () => {
    for (const url of ['/api/gate', '/api/artworks', '/api/no-such-call', '/health-check']) {
      const res = await fetch(`${t.url}${url}`);
      expectHardened(res.headers);
    }
  });

  it('are on the pages', async () => {
    // npm test builds the web app first; a missing build (or a wrong WEB_DIR) fails here, not silently
    expect(fs.existsSync(path.join(WEB_DIR, 'index.html')), `${WEB_DIR}/index.html (run npm run build)`).toBe(true);
    const res = await fetch(`${t.url}/gallery`);
    expect(res.status).toBe(200);
    expectHardened(res.headers);
    // the built page needs no inline script the policy would block
    expect(await res.text()).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('compress large JSON answers for clients that accept it', async () => {
    const seed = await seeder(t);
    const id = await seed.story({ content: 'A long story that compresses well. '.repeat(100) });
    const token = await t.login('guest');
    const headers = { 'x-session-token': token };
    const zipped = await fetch(`${t.url}/api/stories/${id}`, { headers: { ...headers, 'accept-encoding': 'gzip' } });
    expect(zipped.status).toBe(200);
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect((await zipped.json()).content).toContain('compresses well');
    const plain = await fetch(`${t.url}/api/stories/${id}`, { headers: { ...headers, 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
  });
});

describe('in production', () => {
  it('sends HSTS and upgrades insecure requests', async () => {
    const t = await startTestServer({
      NODE_ENV: 'production',
      GALLERY_PASSWORD: 'a-long-guest-password-for-tests',
      ADMIN_PASSWORD: 'a-long-admin-password-for-tests',
      AUDITOR_PASSWORD: 'a-long-auditor-password-for-tests',
      ADMIN_KEY: 'a-long-admin-key-for-the-tests-only',
    });
    try {
      const res = await fetch(`${t.url}/api/gate`);
      expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
      expect(res.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
    } finally {
      await t.close();
    }
  });
});

/** Two likes on one story from two claimed addresses: one identity or two (LIKE_IDENTITY=ip). */
async function likesFromTwoForwardedAddresses(env: Record<string, string>) {
  const t = await startTestServer({ LIKE_IDENTITY: 'ip', ...env });
  try {
    const seed = await seeder(t);
    const id = await seed.story({ content: 'A story to like from behind a proxy' });
    const guest = client(t.url, await t.login('guest'));
    for (const address of ['203.0.113.7', '198.51.100.23', '192.0.2.99']) {
      const res = await guest('POST', `/api/stories/${id}/likes`, undefined, { 'x-forwarded-for': address });
      expect(res.status).toBe(200);
    }
    const count = await guest('GET', `/api/stories/${id}/likes/count`);
    return count.body.count as number;
  } finally {
    await t.close();
  }
}

describe('TRUST_PROXY', () => {
  it('unset: rotating X-Forwarded-For does not change who the visitor is', async () => {
    expect(await likesFromTwoForwardedAddresses({})).toBe(1);
  });

  it('1 (one hop, not the address 0.0.0.1): the proxy-given address is the visitor', async () => {
    expect(await likesFromTwoForwardedAddresses({ TRUST_PROXY: '1' })).toBe(3);
  });

  it('a list that does not include the proxy: the header is ignored', async () => {
    expect(await likesFromTwoForwardedAddresses({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.1' })).toBe(1);
  });

  it('loopback (the test proxy is 127.0.0.1): the header is used', async () => {
    expect(await likesFromTwoForwardedAddresses({ TRUST_PROXY: 'loopback' })).toBe(3);
  });
});

describe('keep-alive', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  const get = (agent: http.Agent) =>
    new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
      const req = http.get(`${t.url}/health-check`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, reused: req.reusedSocket }));
      });
      req.on('error', reject);
    });

  it("keeps an idle connection open past Node's default of 5 s (and its second of grace), so a proxy reusing it meets no reset", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect(await get(agent)).toEqual({ status: 200, reused: false });
      await new Promise((r) => setTimeout(r, 7_000));
      // the same connection answers: the server did not close it while it was idle
      expect(await get(agent)).toEqual({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  });

  it('still closes at once when a request on a kept-alive connection ends during the close', async () => {
    const own = await startTestServer();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const answered = new Promise<number>((resolve, reject) => {
        const req = http.request(`${own.url}/api/auth/login`, {
          agent,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': '25' },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        // the request is in flight (its body half sent) when the server starts closing
        req.write('{"password":');
        setTimeout(() => req.end('"wrong-pass"}'), 300);
      });
      await new Promise((r) => setTimeout(r, 100));
      const started = performance.now();
      const closed = own.close();
      expect(await answered).toBe(401);
      await closed;
      expect(performance.now() - started).toBeLessThan(3_000);
    } finally {
      agent.destroy();
    }
  });

  it('closes at once with a connection open that never sent a request (a preconnect)', async () => {
    const own = await startTestServer();
    // a browser opens a connection ahead of a request it may never send; so does an aborted fetch's pool
    const preconnect = net.connect(Number(new URL(own.url).port), '127.0.0.1');
    await new Promise<void>((resolve, reject) => preconnect.once('connect', resolve).once('error', reject));
    const ended = new Promise<void>((resolve) => preconnect.once('close', () => resolve()));
    preconnect.on('error', () => {});
    try {
      const started = performance.now();
      await own.close();
      // before: the close waited for the connection's headers timeout (76 s)
      expect(performance.now() - started).toBeLessThan(3_000);
      await ended;
    } finally {
      preconnect.destroy();
    }
  });
});
