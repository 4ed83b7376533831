import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { io as connect, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_SOCKET_OPTIONS } from '../../contract/liveSocket.ts';
import { freePort } from '#db/postgres.ts';
import { freshDatabase } from '../support/database.ts';
import { makeTestMedia, removeTestMedia } from '../support/media.ts';
import { startS3 } from '../support/s3.ts';
import { ADMIN_KEY, PASSWORDS } from '../support/server.ts';
import { waitFor } from '../support/wait.ts';
import { startProxy } from './proxy.ts';

/**
 * The production topology of docker-compose.yml without containers (docs/decisions/018): two
 * `--role api` processes and one `--role worker` on one PostgreSQL and one S3 server, behind a proxy.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

interface Proc {
  name: string;
  child: ChildProcess;
  output: string[];
}

let db: Awaited<ReturnType<typeof freshDatabase>>;
let s3: Awaited<ReturnType<typeof startS3>>;
let proxy: Awaited<ReturnType<typeof startProxy>>;
/** the same proxy on a visitor's network that blocks WebSockets */
let blocking: Awaited<ReturnType<typeof startProxy>>;
const procs: Proc[] = [];
const apiPorts: number[] = [];
const sockets: Socket[] = [];

function start(name: string, role: 'api' | 'worker', port = 0): Proc {
  const child = spawn(process.execPath, [path.join(ROOT, 'api/main.ts'), '--role', role], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...s3.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      PORT: String(port),
      DATABASE_URL: db.url,
      GALLERY_PASSWORD: PASSWORDS.guest,
      ADMIN_PASSWORD: PASSWORDS.admin,
      ADMIN_KEY,
      TZ: 'UTC',
      TRUST_PROXY: 'loopback',
    },
  });
  const proc = { name, child, output: [] as string[] };
  child.stdout!.on('data', (d) => proc.output.push(String(d)));
  child.stderr!.on('data', (d) => proc.output.push(String(d)));
  procs.push(proc);
  return proc;
}

beforeAll(async () => {
  db = await freshDatabase();
  s3 = await startS3();
  for (let i = 0; i < 2; i++) apiPorts.push(await freePort());
  const worker = start('worker', 'worker');
  apiPorts.forEach((port, i) => start(`api-${i + 1}`, 'api', port));
  for (const port of apiPorts) {
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/ready`).catch(() => undefined))?.ok, 60_000);
  }
  await waitFor(async () => worker.output.join('').includes('worker running'), 60_000);
  proxy = await startProxy(apiPorts);
  blocking = await startProxy(apiPorts, { blockWebSockets: true });
}, 120_000);

afterAll(async () => {
  for (const s of sockets) s.close();
  await proxy?.close();
  await blocking?.close();
  await Promise.all(
    procs.map(
      ({ child }) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
  await s3?.stop();
  await db?.drop();
  await removeTestMedia();
});

async function call(method: string, url: string, opts: { token?: string; body?: unknown; backend?: number } = {}) {
  const res = await fetch(`${proxy.url}${url}`, {
    method,
    headers: {
      ...(opts.token ? { 'x-session-token': opts.token } : {}),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(opts.backend !== undefined ? { 'x-backend': String(opts.backend) } : {}),
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A live connection as the web app opens it (contract/liveSocket.ts), with whatever a test changes. */
function liveSocket(url: string, token: string, extra: Partial<ManagerOptions & SocketOptions> = {}) {
  const socket = connect(url, { ...LIVE_SOCKET_OPTIONS, auth: { token }, ...extra });
  sockets.push(socket);
  return socket;
}

function connected(socket: Socket) {
  return new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
}

describe('two API processes and a worker behind a proxy', () => {
  it('submission on one API process, approval, the other process tells its socket, the worker runs the media job', async () => {
    const guest = (await call('POST', '/api/auth/login', { body: { password: PASSWORDS.guest } })).body.sessionToken;
    const admin = (await call('POST', '/api/auth/login', { body: { password: PASSWORDS.admin } })).body.sessionToken;
    expect(guest).toBeTruthy();
    expect(admin).toBeTruthy();

    // a visitor's live connection as the web app opens it, through the proxy, held by the second API process
    const socket = liveSocket(proxy.url, guest, { reconnection: false, extraHeaders: { 'x-backend': '1' } });
    // one whose network allows only long-polling, its requests spread by the proxy alone (decision 053)
    const polling = liveSocket(proxy.url, guest, { reconnection: false, transports: ['polling'] });
    // and the web app's own options where the network blocks WebSockets: it falls back to polling
    const fallback = liveSocket(blocking.url, guest, { reconnection: false });
    await Promise.all([socket, polling, fallback].map(connected));
    expect(socket.io.engine.transport.name).toBe('websocket');
    expect(polling.io.engine.transport.name).toBe('polling');
    expect(fallback.io.engine.transport.name).toBe('polling');
    const heard = (s: Socket) => {
      const added: { kind: string; item: { id: number } }[] = [];
      s.on('gallery:item-added', (payload) => added.push(payload));
      return added;
    };
    const added = heard(socket);
    const addedPolling = heard(polling);
    const addedFallback = heard(fallback);

    // the upload and the submission go to the first API process
    const files = await makeTestMedia();
    const form = new FormData();
    form.append('file', new Blob([fs.readFileSync(files.mp4)], { type: 'video/mp4' }), 'clip.mp4');
    const upload = await fetch(`${proxy.url}/api/upload-direct`, {
      method: 'POST',
      headers: { 'x-session-token': guest, 'x-backend': '0' },
      body: form,
    });
    expect(upload.status).toBe(201);
    const { path: mediaData } = (await upload.json()) as { path: string };
    const submitted = await call('POST', '/api/media', {
      token: guest,
      backend: 0,
      body: {
        title: 'Through the proxy',
        artistName: 'Topo Logy',
        email: 'topo@example.com',
        mediaType: 'video',
        mediaData,
        mimeType: 'video/mp4',
      },
    });
    expect(submitted.status).toBe(201);
    const id = submitted.body.id as number;

    const approved = await call('PATCH', `/api/admin/media/${id}`, {
      token: admin,
      backend: 0,
      body: { status: 'approved' },
    });
    expect(approved.status).toBe(200);

    // the second process learns of it from the shared log, not from the first process
    await waitFor(async () => added.some((a) => a.kind === 'media' && a.item.id === id), 20_000);
    for (const list of [addedPolling, addedFallback]) {
      await waitFor(async () => list.some((a) => a.kind === 'media' && a.item.id === id), 20_000);
    }
    expect([socket, polling, fallback].every((s) => s.connected)).toBe(true);

    // only the worker has job handlers: a poster means the worker ran the media job
    await waitFor(async () => {
      const res = await fetch(`${proxy.url}/api/media/${id}/thumbnail`, { headers: { 'x-session-token': guest } });
      await res.arrayBuffer();
      return res.status === 200;
    }, 60_000);
    const media = await call('GET', `/api/media/${id}`, { token: guest });
    expect(media.body.processing).toBeFalsy();
    const worker = procs.find((p) => p.name === 'worker')!;
    const jobLine = worker.output
      .join('')
      .split('\n')
      .find((l) => l.includes('"job":"process-media"'));
    expect(jobLine, 'the worker logged the media job').toBeDefined();

    // and the proxy spread the rest of the traffic over both processes
    for (let i = 0; i < 4; i++) await call('GET', '/api/gallery', { token: guest });
    expect([...proxy.counts.values()].every((n) => n > 0)).toBe(true);
    expect(proxy.counts.size).toBe(2);
  });
  it('without the affinity cookie a long-polling client cannot connect (the control: the proxy spreads its requests)', async () => {
    const roundRobin = await startProxy(apiPorts, { sticky: false });
    try {
      const guest = (await call('POST', '/api/auth/login', { body: { password: PASSWORDS.guest } })).body.sessionToken;
      const polling = liveSocket(roundRobin.url, guest, { reconnection: false, transports: ['polling'] });
      const error = await connected(polling).then(
        () => undefined,
        (e: Error & { description?: unknown }) => e,
      );
      // a request of the session reached the process that does not hold it: 400 'Session ID unknown'
      expect(error?.message).toMatch(/^xhr (poll|post) error$/);
      expect(error?.description).toBe(400);
      expect([...roundRobin.counts.values()].every((n) => n > 0)).toBe(true);
    } finally {
      await roundRobin.close();
    }
  });
  it('drains an API process on SIGTERM: it exits 0, its sockets reconnect to the other one and still hear approvals', async () => {
    const guest = (await call('POST', '/api/auth/login', { body: { password: PASSWORDS.guest } })).body.sessionToken;
    const admin = (await call('POST', '/api/auth/login', { body: { password: PASSWORDS.admin } })).body.sessionToken;
    const socket = liveSocket(proxy.url, guest, { reconnectionDelay: 200, reconnectionDelayMax: 1000 });
    await connected(socket);
    expect(socket.io.engine.transport.name).toBe('websocket');
    const holding = proxy.upgrades.at(-1)!;
    const proc = procs.find((p) => p.name === `api-${apiPorts.indexOf(holding) + 1}`)!;
    const exited = new Promise<number | null>((resolve) => proc.child.once('exit', (code) => resolve(code)));
    const reconnected = new Promise<void>((resolve) => socket.io.once('reconnect', () => resolve()));
    proc.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await reconnected;
    // a reconnect whose WebSocket failed comes back by polling and upgrades after: the last upgrade is its own
    await waitFor(async () => socket.io.engine.transport.name === 'websocket', 10_000);
    expect(proxy.upgrades.at(-1)).not.toBe(holding);

    const added: { kind: string; item: { id: number } }[] = [];
    socket.on('gallery:item-added', (payload) => added.push(payload));
    const story = await call('POST', '/api/stories', {
      token: guest,
      body: { content: 'Told after the drain', authorName: 'Dee Rain', email: 'dee@example.com' },
    });
    expect(story.status).toBe(201);
    expect(
      (await call('PATCH', `/api/admin/stories/${story.body.id}`, { token: admin, body: { status: 'approved' } }))
        .status,
    ).toBe(200);
    await waitFor(async () => added.some((a) => a.kind === 'story' && a.item.id === story.body.id), 20_000);
  });
});
