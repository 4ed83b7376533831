import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import path from 'node:path';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '#db/postgres.ts';
import { affinityFor, startCaddy, type RunningCaddy } from '../support/caddy.ts';
import { freshDatabase } from '../support/database.ts';
import { ADMIN_KEY, PASSWORDS } from '../support/server.ts';
import { waitFor } from '../support/wait.ts';

/**
 * deploy/Caddyfile as deployed, run by the real caddy (Debian's package), in front of two
 * `--role api` processes: affinity by a keyed cookie, WebSocket through it, the internal endpoints
 * closed however they are spelled, and a process that drains leaving the pool without a failed answer.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

let db: Awaited<ReturnType<typeof freshDatabase>>;
let caddy: RunningCaddy;
const ports: number[] = [];
const children = new Map<number, ChildProcess>();
const sockets: Socket[] = [];

function startApi(port: number): ChildProcess {
  const child = spawn(process.execPath, [path.join(ROOT, 'api/main.ts'), '--role', 'api'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      DATABASE_URL: db.url,
      GALLERY_PASSWORD: PASSWORDS.guest,
      ADMIN_PASSWORD: PASSWORDS.admin,
      ADMIN_KEY,
      TZ: 'UTC',
      TRUST_PROXY: 'loopback',
      SHUTDOWN_GRACE_MS: '8000',
    },
    stdio: 'ignore',
  });
  children.set(port, child);
  return child;
}

beforeAll(async () => {
  db = await freshDatabase();
  for (let i = 0; i < 2; i++) ports.push(await freePort());
  for (const port of ports) startApi(port);
  for (const port of ports) {
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/ready`).catch(() => undefined))?.ok, 60_000);
  }
  caddy = await startCaddy(ports);
}, 120_000);

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await caddy?.close();
  await Promise.all(
    [...children.values()].map(async (child) => {
      if (child.exitCode !== null) return;
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }),
  );
  await db?.drop();
});

const affinityOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => /^tg_lb=([^;]*)/.exec(c)?.[1])
    .find(Boolean);

/** How many GET /api/gate the process on `port` has answered (its own /metrics, not through the proxy). */
async function gateCount(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith('http_request_duration_seconds_count{') && l.includes('route="/api/gate"'));
  return Number(line?.split(' ').at(-1) ?? 0);
}

describe('deploy/Caddyfile in front of two API processes', () => {
  it('keeps a browser on one process with a cookie keyed by LB_COOKIE_SECRET', async () => {
    const first = await fetch(`${caddy.url}/api/gate`);
    expect(first.status).toBe(200);
    const cookie = affinityOf(first)!;
    const held = ports.find((port) => affinityFor(port) === cookie)!;
    expect(held, `tg_lb=${cookie} names one of the two processes under the secret`).toBeDefined();
    // without the secret the cookie would be the HMAC under an empty key: anyone could forge one
    for (const port of ports) {
      expect(cookie).not.toBe(createHmac('sha256', '').update(`127.0.0.1:${port}`).digest('hex'));
    }
    const other = ports.find((port) => port !== held)!;
    const before = { held: await gateCount(held), other: await gateCount(other) };
    for (let i = 0; i < 8; i++) {
      const res = await fetch(`${caddy.url}/api/gate`, { headers: { cookie: `tg_lb=${cookie}` } });
      expect(res.status).toBe(200);
      expect(affinityOf(res)).toBeUndefined();
    }
    expect(await gateCount(held)).toBe(before.held + 8);
    expect(await gateCount(other)).toBe(before.other);
  });

  it('carries the live connection over WebSocket', async () => {
    const login = await fetch(`${caddy.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: PASSWORDS.guest }),
    });
    const { sessionToken } = (await login.json()) as { sessionToken: string };
    const socket = connect(caddy.url, {
      auth: { token: sessionToken },
      transports: ['websocket'],
      reconnection: false,
    });
    sockets.push(socket);
    const batch = await new Promise<{ upTo: number }>((resolve, reject) => {
      socket.once('sync:batch', resolve);
      socket.once('connect_error', reject);
    });
    expect(batch.upTo).toBeGreaterThanOrEqual(0);
    expect(socket.io.engine.transport.name).toBe('websocket');
    socket.close();
  });

  it('answers 404 for the scrape and readiness endpoints however they are spelled', async () => {
    const spellings = [
      '/metrics',
      '/metrics/',
      '/ready',
      '/ready/',
      '/METRICS',
      '/Metrics/',
      '/READY/',
      '/metrics?format=text',
      '/metrics/?x=1',
      '/metrics/anything',
      '//metrics',
      '/./metrics',
      '/api/../metrics',
      '/%6detrics',
    ];
    for (const spelling of spellings) {
      const res = await fetch(`${caddy.url}${spelling}`);
      expect(res.status, spelling).toBe(404);
      expect(await res.text(), spelling).not.toContain('process_cpu');
    }
    // the API itself answers them (the trailing slash included): the proxy is what closes them
    expect((await fetch(`http://127.0.0.1:${ports[0]}/metrics/`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${ports[0]}/ready/`)).status).toBe(200);
  });

  it('takes a process that drains out of the pool without one failed answer', async () => {
    const [leaving, staying] = ports as [number, number];
    const cookie = affinityFor(leaving);
    const statuses: number[] = [];
    const child = children.get(leaving)!;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    let movedTo: string | undefined;
    // a browser held by the leaving process keeps asking while it drains and after it is gone
    await waitFor(async () => {
      const res = await fetch(`${caddy.url}/api/gate`, { headers: { cookie: `tg_lb=${cookie}` } });
      statuses.push(res.status);
      movedTo = affinityOf(res) ?? movedTo;
      return child.exitCode !== null && movedTo !== undefined;
    }, 60_000);
    await exited;
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${caddy.url}/api/gate`, { headers: { cookie: `tg_lb=${cookie}` } });
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    // it was given the other process's cookie, and new browsers go there too
    expect(movedTo).toBe(affinityFor(staying));
    for (let i = 0; i < 4; i++) expect(affinityOf(await fetch(`${caddy.url}/api/gate`))).toBe(affinityFor(staying));
  });
});
