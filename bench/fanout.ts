import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { io as connect, type Socket } from 'socket.io-client';
import { freePort } from '#db/postgres.ts';
import { percentile, startProcess } from './support.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1000);
const ROUNDS = 20;

async function connectAll(url: string, token?: string): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let i = 0; i < CLIENTS; i += 50) {
    const batch = Array.from({ length: Math.min(50, CLIENTS - i) }, () => {
      const s = connect(url, {
        auth: token ? { token } : {},
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
      });
      sockets.push(s);
      return new Promise<void>((resolve, reject) => {
        s.once('connect', () => resolve());
        s.once('connect_error', reject);
      });
    });
    await Promise.all(batch);
  }
  return sockets;
}

/**
 * Fires `trigger` ROUNDS times; for each, the delay from its HTTP response to each client's
 * likes:changed, and the delay until the last client had it.
 */
async function measure(sockets: Socket[], trigger: () => Promise<void>) {
  const deliveries: number[] = [];
  const fromRequest: number[] = [];
  const lastOfRound: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const received: number[] = [];
    const all = new Promise<void>((resolve) => {
      for (const s of sockets) {
        s.once('likes:changed', () => {
          received.push(performance.now());
          if (received.length === sockets.length) resolve();
        });
      }
    });
    const sentAt = performance.now();
    await trigger();
    const answeredAt = performance.now();
    await Promise.race([all, new Promise((r) => setTimeout(r, 10_000))]);
    for (const t of received) {
      deliveries.push(t - answeredAt);
      fromRequest.push(t - sentAt);
    }
    lastOfRound.push(Math.max(...received) - answeredAt);
    await new Promise((r) => setTimeout(r, 100));
  }
  deliveries.sort((a, b) => a - b);
  fromRequest.sort((a, b) => a - b);
  lastOfRound.sort((a, b) => a - b);
  return {
    requestP50: percentile(fromRequest, 50),
    requestP99: percentile(fromRequest, 99),
    p50: percentile(deliveries, 50),
    p99: percentile(deliveries, 99),
    max: deliveries.at(-1)!,
    last: percentile(lastOfRound, 50),
    delivered: deliveries.length,
  };
}

export async function benchFanout(databaseUrl: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-bench-data-'));
  const [appPort, barePort] = [await freePort(), await freePort()];
  const app = await startProcess(['api/main.ts'], {
    PORT: String(appPort),
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    GALLERY_PASSWORD: 'bench',
    ADMIN_PASSWORD: 'bench-admin',
  });
  const bare = await startProcess(['bench/bareSocketServer.ts'], { PORT: String(barePort) });
  const base = `http://127.0.0.1:${appPort}`;
  const sockets: Socket[] = [];
  try {
    const login = async (password: string) => {
      const r = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ password }),
      });
      return ((await r.json()) as { sessionToken: string }).sessionToken;
    };
    const guest = await login('bench');
    const admin = await login('bench-admin');
    const call = (method: string, url: string, token: string, body?: unknown) =>
      fetch(`${base}${url}`, {
        method,
        headers: { 'x-session-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      }).then((r) => r.json() as Promise<{ id: number }>);
    const { id } = await call('POST', '/api/stories', guest, {
      content: 'Fan-out',
      authorName: 'Bench',
      email: 'b@example.com',
    });
    await call('PATCH', `/api/admin/stories/${id}`, admin, { status: 'approved' });

    sockets.push(...(await connectAll(base, guest)));
    const ours = await measure(sockets, async () => {
      await fetch(`${base}/api/stories/${id}/like`, { method: 'POST', headers: { 'x-session-token': guest } });
    });
    for (const s of sockets.splice(0)) s.close();

    sockets.push(...(await connectAll(`http://127.0.0.1:${barePort}`)));
    const baseline = await measure(sockets, async () => {
      await fetch(`http://127.0.0.1:${barePort}/emit`, { method: 'POST' });
    });
    const row = (name: string, r: typeof ours) =>
      `| ${name} | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms | ${r.max.toFixed(1)} ms | ${r.last.toFixed(1)} ms | ${r.requestP50.toFixed(1)} / ${r.requestP99.toFixed(1)} ms | ${r.delivered} |`;
    return [
      `### Live fan-out: ${CLIENTS} socket.io clients, ${ROUNDS} likes, from the like's HTTP response to each client's \`likes:changed\``,
      '',
      'Negative values: the event reached the client before the HTTP response did (clients and caller share one process,',
      'so the response waits behind socket frames). The column "from request" measures from sending the like instead.',
      '',
      '| server | p50 | p99 | max | last client (median of rounds) | from request p50 / p99 | deliveries |',
      '|---|---:|---:|---:|---:|---:|---:|',
      row('the app: like → log → projection + outbox → tail → sockets', ours),
      row('baseline: bare socket.io broadcast, no database', baseline),
    ].join('\n');
  } finally {
    for (const s of sockets) s.close();
    app.kill('SIGTERM');
    bare.kill('SIGTERM');
    await Promise.all([new Promise((r) => app.once('exit', r)), new Promise((r) => bare.once('exit', r))]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
