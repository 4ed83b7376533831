import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { io as connect, type Socket } from 'socket.io-client';
import { freePort } from '#db/postgres.ts';
import { percentile, startProcess } from './support.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1000);
const MISSED = 300;

interface Batch {
  upTo: number;
  refetch: boolean;
  messages: unknown[];
}

/** Opens `count` sockets, 50 at a time; resolves with each one's first sync:batch. */
async function openAll(url: string, token: string, since: number[] | undefined, sockets: Socket[]) {
  const batches: Batch[] = [];
  const arrivals: number[] = [];
  const started = performance.now();
  for (let i = 0; i < CLIENTS; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, CLIENTS - i) }, (_, j) => {
        const n = i + j;
        const s = connect(url, {
          auth: { token, ...(since ? { since: since[n] } : {}) },
          transports: ['websocket'],
          reconnection: false,
          forceNew: true,
        });
        sockets.push(s);
        return new Promise<void>((resolve, reject) => {
          s.once('sync:batch', (batch: Batch) => {
            batches[n] = batch;
            arrivals.push(performance.now() - started);
            resolve();
          });
          s.once('connect_error', reject);
        });
      }),
    );
  }
  return { batches, arrivals: arrivals.sort((a, b) => a - b), seconds: (performance.now() - started) / 1000 };
}

const commits = async (pool: pg.Pool) =>
  (
    await pool.query<{ n: number }>(
      `SELECT xact_commit::int AS n FROM pg_stat_database WHERE datname = current_database()`,
    )
  ).rows[0]!.n;

/**
 * A reconnect storm (issue 9): CLIENTS screens are away while MISSED events happen, then all come back
 * at once. Ours: each reconnects with `since` and is sent what it missed from the outbox. The naive way,
 * in the same run: each reconnects without a position and loads the gallery's first page again.
 */
export async function benchReconnect(pool: pg.Pool, databaseUrl: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-bench-data-'));
  const port = await freePort();
  const app = await startProcess(['api/main.ts'], {
    LOG_LEVEL: 'info',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    GALLERY_PASSWORD: 'bench-guest-password',
    ADMIN_PASSWORD: 'bench-admin-password',
  });
  const base = `http://127.0.0.1:${port}`;
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
    const admin = await login('bench-admin-password');
    const call = (method: string, url: string, token: string, body?: unknown) =>
      fetch(`${base}${url}`, {
        method,
        headers: { 'x-session-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      }).then(async (r) => ({ status: r.status, body: (await r.json().catch(() => ({}))) as { id?: number } }));
    const guests = await Promise.all(Array.from({ length: 20 }, () => login('bench-guest-password')));
    const stories: number[] = [];
    for (let i = 0; i < 10; i++) {
      const { body } = await call('POST', '/api/stories', guests[i]!, {
        content: `Storm ${i}`,
        authorName: 'Bench',
        email: 'b@example.com',
      });
      await call('PATCH', `/api/admin/stories/${body.id}`, admin, { status: 'approved' });
      stories.push(body.id!);
    }

    // everyone is here and knows where the log stands; then everyone is away
    const first = await openAll(base, guests[0]!, undefined, sockets);
    const positions = first.batches.map((b) => b.upTo);
    for (const s of sockets.splice(0)) s.close();

    // MISSED events while they are away: comments (one message each) and likes of different items
    let made = 0;
    for (let i = 0; made < MISSED; i++) {
      const guest = guests[i % guests.length]!;
      const story = stories[i % stories.length]!;
      const r =
        i % 2
          ? await call('POST', `/api/stories/${story}/comments`, guest, {
              authorName: 'Kim',
              content: `While away ${i}`,
            })
          : await call('POST', `/api/stories/${story}/like`, guest);
      if (r.status < 300) made++;
      if (i > MISSED * 4) throw new Error(`only ${made} events could be made (last answer ${r.status})`);
    }

    const before = await commits(pool);
    const ours = await openAll(base, guests[0]!, positions, sockets);
    const oursQueries = ((await commits(pool)) - before) / CLIENTS;
    const carried = ours.batches.reduce((n, b) => n + b.messages.length, 0) / CLIENTS;
    const refetched = ours.batches.filter((b) => b.refetch).length;
    for (const s of sockets.splice(0)) s.close();

    // the naive way: no position, so every screen loads its data again
    const naiveBefore = await commits(pool);
    const naiveStarted = performance.now();
    const naiveDone: number[] = [];
    const naive = await openAll(base, guests[0]!, undefined, sockets);
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        await call('GET', '/api/gallery?page=1', guests[0]!);
        naiveDone.push(performance.now() - naiveStarted);
      }),
    );
    naiveDone.sort((a, b) => a - b);
    const naiveQueries = ((await commits(pool)) - naiveBefore) / CLIENTS;
    expect(naive.batches.length === CLIENTS);

    const row = (name: string, arrivals: number[], queries: number, extra: string) =>
      `| ${name} | ${percentile(arrivals, 50).toFixed(0)} ms | ${percentile(arrivals, 95).toFixed(0)} ms | ${arrivals.at(-1)!.toFixed(0)} ms | ${queries.toFixed(2)} | ${extra} |`;
    return [
      `### Reconnect storm: ${CLIENTS} screens come back at once after missing ${MISSED} events`,
      '',
      'Time from the first reconnect until each screen has caught up (ours: its `sync:batch`; naive: its',
      'gallery page loaded again), and database transactions per reconnect (`pg_stat_database.xact_commit`).',
      '',
      '| way | p50 | p95 | last | DB transactions per reconnect | |',
      '|---|---:|---:|---:|---:|---|',
      row(
        'ours: reconnect with `since`, missed messages from the outbox',
        ours.arrivals,
        oursQueries,
        `${carried.toFixed(0)} messages each, ${refetched} told to refetch`,
      ),
      row('naive: reconnect and refetch the gallery page', naiveDone, naiveQueries, 'no live messages caught up'),
    ].join('\n');
  } finally {
    for (const s of sockets) s.close();
    const exited = new Promise((r) => app.once('exit', r));
    app.kill('SIGTERM');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function expect(ok: boolean) {
  if (!ok) throw new Error('a screen did not get its batch');
}
