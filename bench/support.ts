import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { io as connect, type Socket } from 'socket.io-client';
import { migrate } from '#db/migrate.ts';
import type { LegacyEvent } from '#events/catalog.ts';
import type { ProjectionRunner } from '#projections/runner.ts';
import { createPool, freePort, openDatabase, startEmbedded } from '#db/postgres.ts';

/** A fresh, migrated database: DATABASE_URL when set, else an embedded PostgreSQL in a temp dir. */
export async function benchDatabase() {
  if (process.env.DATABASE_URL) {
    const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: '.' });
    const pool = createPool(db.url, 40);
    await migrate(pool);
    return { pool, url: db.url, stop: async () => pool.end() };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-bench-'));
  fs.chmodSync(dir, 0o777);
  const db = await startEmbedded(path.join(dir, 'data'));
  const pool = createPool(db.url, 40);
  await migrate(pool);
  return {
    pool,
    url: db.url,
    async stop() {
      await pool.end();
      await db.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** p50, p95, p99 and max of some timings (the array is sorted in place). */
export function spread(values: number[]) {
  values.sort((a, b) => a - b);
  return {
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    max: values.at(-1) ?? NaN,
    n: values.length,
  };
}

/** A Markdown table of the p50, p99 and max of some delays in milliseconds. */
export function lagTable(delays: number[]) {
  const { p50, p99, max } = spread(delays);
  return [
    '| p50 | p99 | max |',
    '|---:|---:|---:|',
    `| ${p50.toFixed(1)} ms | ${p99.toFixed(1)} ms | ${max.toFixed(1)} ms |`,
  ];
}

/**
 * The data of an `ArtworkSubmitted` for a seeded 800×600 photo (no file behind it), as the log held
 * it before names left it (v1, decision 050): its values inline, so no personal data rows are needed.
 */
export function seededArtwork(
  artworkId: number,
  submittedAt: string,
  { title, description, artistName }: { title: string; description: string | null; artistName: string },
): Extract<LegacyEvent, { type: 'ArtworkSubmitted' }>['data'] {
  const image = { key: `artworks/${artworkId}/original.jpg`, contentType: 'image/jpeg', width: 800, height: 600 };
  return {
    artworkId,
    title,
    description,
    tags: null,
    artistName,
    emailRef: 1,
    isFromCanvas: false,
    image: { ...image, bytes: 50_000 },
    submittedAt,
  };
}

/**
 * Times appends until the catalog read model commits them: `appendedAt` takes each append's position
 * and time; `lags` fills as the runner commits; `settle()` waits (up to 30 s) for the last, then stops it.
 */
export function catalogLag(runner: ProjectionRunner) {
  const appendedAt = new Map<number, number>();
  const lags: number[] = [];
  const lagOf = new Map<number, number>();
  runner.onCommitted((name, events) => {
    if (name !== 'catalog') return;
    const now = performance.now();
    for (const e of events) {
      const at = appendedAt.get(e.position);
      if (at !== undefined) {
        lags.push(now - at);
        lagOf.set(e.position, now - at);
      }
    }
  });
  return {
    appendedAt,
    lags,
    /** each measured event's lag, by its position */
    lagOf,
    async settle() {
      const deadline = Date.now() + 30_000;
      while (lags.length < appendedAt.size && Date.now() < deadline) await sleep(20);
      await runner.stop();
    },
  };
}

/** Runs `writers` loops for `ms` milliseconds; returns operations per second. */
export async function rate(writers: number, ms: number, op: (writer: number, i: number) => Promise<void>) {
  const until = performance.now() + ms;
  const started = performance.now();
  let done = 0;
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; performance.now() < until; i++) {
        await op(w, i);
        done++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

/**
 * Starts a Node script with extra environment and resolves once it prints its listening address;
 * rejects if it exits first, so a benchmark never waits on a server that died.
 */
export function startProcess(args: string[], env: Record<string, string>, stdin?: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'inherit'],
  });
  if (stdin !== undefined) child.stdin!.end(stdin);
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('http://') && resolve(child));
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) before it listened`)));
  });
}

/** Resident memory of a process in bytes, from /proc. */
export function rssBytes(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
}

/** CPU seconds (user + system) a process has used, from /proc (clock ticks at USER_HZ = 100). */
export function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * The CPU seconds a local PostgreSQL cluster has used: the postmaster, its children (backends, WAL
 * writer, checkpointer) and the children it has already reaped. Null when the cluster is not on this
 * machine (DATABASE_URL elsewhere) or its files are not readable.
 */
export async function postgresCpu(pool: pg.Pool): Promise<(() => number) | null> {
  try {
    const { rows } = await pool.query<{ data_directory: string }>('SHOW data_directory');
    const postmaster = Number(
      fs.readFileSync(path.join(rows[0]!.data_directory, 'postmaster.pid'), 'utf8').split('\n')[0],
    );
    return () => {
      let ticks = 0;
      for (const pid of fs.readdirSync('/proc')) {
        if (!/^\d+$/.test(pid)) continue;
        try {
          const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
          if (Number(pid) === postmaster) ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
          else if (Number(f[1]) === postmaster) ticks += Number(f[11]) + Number(f[12]);
        } catch {
          // a backend that ended between the listing and the read: its time is in the parent's
        }
      }
      return ticks / 100;
    };
  } catch {
    return null;
  }
}

/** Ends a child process started here and waits until it has exited. */
export async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A bench server script (it prints its address once listening) on a free port. */
export async function startServer(script: string, env: Record<string, string> = {}, stdin?: string) {
  const port = await freePort();
  const child = await startProcess([script], { PORT: String(port), ...env }, stdin);
  return { process: child, base: `http://127.0.0.1:${port}`, stop: () => stopProcess(child) };
}

export const GUEST_PASSWORD = 'bench';
export const ADMIN_PASSWORD = 'bench-admin';

/** A session token from `POST /api/auth/login` on the server at `base`. */
export async function signIn(base: string, password: string) {
  const r = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password }),
  });
  if (!r.ok) throw new Error(`login ${r.status}`);
  return ((await r.json()) as { sessionToken: string }).sessionToken;
}

/**
 * The app (api/main.ts, every role in one process) on a free port with a data directory of its own,
 * and the calls every benchmark makes against it. `stop()` ends it and removes the directory.
 */
export async function startApp(databaseUrl: string, env: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-bench-data-'));
  const port = await freePort();
  const child = await startProcess(['api/main.ts'], {
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    GALLERY_PASSWORD: GUEST_PASSWORD,
    ADMIN_PASSWORD,
    ...env,
  }).catch((error: unknown) => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  const base = `http://127.0.0.1:${port}`;
  const call = (method: string, url: string, token: string, body?: unknown) =>
    fetch(`${base}${url}`, {
      method,
      headers: { 'x-session-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const login = (password = GUEST_PASSWORD) => signIn(base, password);
  return {
    process: child,
    base,
    dataDir,
    call,
    login,
    admin: () => login(ADMIN_PASSWORD),
    /** `count` guest sessions, 20 logins at a time. */
    async guests(count: number) {
      const tokens: string[] = [];
      for (let i = 0; i < count; i += 20) {
        tokens.push(...(await Promise.all(Array.from({ length: Math.min(20, count - i) }, () => login()))));
      }
      return tokens;
    },
    /** A story by `token`, approved by the admin; its id. */
    async approvedStory(token: string, admin: string, content: string) {
      const r = await call('POST', '/api/stories', token, { content, authorName: 'Bench', email: 'b@example.com' });
      const { id } = (await r.json()) as { id: number };
      await (await call('PATCH', `/api/admin/stories/${id}`, admin, { status: 'approved' })).arrayBuffer();
      return id;
    },
    async stop() {
      await stopProcess(child);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type App = Awaited<ReturnType<typeof startApp>>;
export type Server = Awaited<ReturnType<typeof startServer>>;

/**
 * Runs `body` with the app and a baseline server (a bench script) started, and a list for the sockets
 * it opens; afterwards closes those sockets and stops both servers, whatever happened.
 */
export async function withServers<T>(
  databaseUrl: string,
  baseline: { script: string; env?: Record<string, string> },
  body: (app: App, baseline: Server, sockets: Socket[]) => Promise<T>,
): Promise<T> {
  const app = await startApp(databaseUrl);
  const sockets: Socket[] = [];
  let server: Server | undefined;
  try {
    server = await startServer(baseline.script, baseline.env);
    return await body(app, server, sockets);
  } finally {
    closeSockets(sockets);
    await Promise.all([app.stop(), server?.stop()]);
  }
}

/**
 * Opens a socket for each of `auths`, 50 at a time, into `sockets` (so the caller closes them whatever
 * happens); each is ready at its first `ready` event, whose payload goes to `onReady` with its number.
 */
export async function openSockets(
  sockets: Socket[],
  url: string,
  auths: Array<Record<string, unknown>>,
  ready = 'connect',
  onReady?: (n: number, payload: unknown) => void,
) {
  for (let i = 0; i < auths.length; i += 50) {
    await Promise.all(
      auths.slice(i, i + 50).map((auth, j) => {
        const s = connect(url, { auth, transports: ['websocket'], reconnection: false, forceNew: true });
        sockets.push(s);
        return new Promise<void>((resolve, reject) => {
          s.once(ready, (payload: unknown) => {
            onReady?.(i + j, payload);
            resolve();
          });
          s.once('connect_error', reject);
        });
      }),
    );
  }
}

/** Closes every socket and empties the list. */
export function closeSockets(sockets: Socket[]) {
  for (const s of sockets.splice(0)) s.close();
}

/**
 * `rounds` rounds of a broadcast: each sends `trigger` and waits (up to `timeoutMs`) for `event` on
 * every socket, then pauses `pauseMs`; for each, when each socket had it, when the trigger was sent
 * and when it was answered.
 */
export async function broadcastRounds(
  sockets: Socket[],
  event: string,
  trigger: () => Promise<unknown>,
  { rounds, timeoutMs, pauseMs }: { rounds: number; timeoutMs: number; pauseMs: number },
) {
  const results: Array<{ received: number[]; sentAt: number; answeredAt: number }> = [];
  for (let round = 0; round < rounds; round++) {
    const received: number[] = [];
    const all = new Promise<void>((resolve) => {
      for (const s of sockets) {
        s.once(event, () => {
          received.push(performance.now());
          if (received.length === sockets.length) resolve();
        });
      }
    });
    const sentAt = performance.now();
    await trigger();
    const answeredAt = performance.now();
    await Promise.race([all, sleep(timeoutMs)]);
    for (const s of sockets) s.off(event);
    results.push({ received, sentAt, answeredAt });
    await sleep(pauseMs);
  }
  return results;
}
