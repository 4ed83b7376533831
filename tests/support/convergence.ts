import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { QueryClient, QueryObserver, type QueryKey } from '@tanstack/react-query';
import pg from 'pg';
import { io } from 'socket.io-client';
import { freePort, startEmbedded, type Database } from '#db/postgres.ts';
import { startLiveClient, type LiveClient } from '../../web/src/live/client.ts';
import type { LiveMessage } from '../../web/src/live/sequence.ts';
import { ADMIN_KEY, client, PASSWORDS } from './server.ts';

/**
 * The pieces of the convergence run (issue 9): a PostgreSQL of its own (so it can be restarted),
 * server processes started as in production (`--role api|worker`), and clients that run the web
 * app's own live code (startLiveClient: sequence, cache patches, resync) in Node.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Cluster {
  db: Database & { url: string };
  pool: pg.Pool;
  dataDir: string;
  processes: Map<string, ServerProcess>;
  start(name: string, role: 'api' | 'worker', port?: number): Promise<ServerProcess>;
  close(): Promise<void>;
}

export interface ServerProcess {
  name: string;
  url: string;
  port: number;
  child: ChildProcess;
  /** the last lines it wrote, and how it ended if it did */
  report(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startCluster(): Promise<Cluster> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-converge-'));
  fs.chmodSync(root, 0o777);
  const db = await startEmbedded(path.join(root, 'pg'));
  const dataDir = path.join(root, 'data');
  fs.mkdirSync(dataDir);
  const pool = new pg.Pool({ connectionString: db.url, max: 4 });
  pool.on('error', () => {});
  const processes = new Map<string, ServerProcess>();

  async function start(name: string, role: 'api' | 'worker', port?: number): Promise<ServerProcess> {
    const chosen = port ?? (await freePort());
    const child = spawn(process.execPath, [path.join(ROOT, 'api/main.ts'), '--role', role], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        PORT: String(chosen),
        DATABASE_URL: db.url,
        DATA_DIR: dataDir,
        GALLERY_PASSWORD: PASSWORDS.guest,
        ADMIN_PASSWORD: PASSWORDS.admin,
        ADMIN_KEY,
        TZ: 'UTC',
        // the line that says it is running is an info line
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-6000));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const url = `http://127.0.0.1:${chosen}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${name} exited at start:\n${output}`);
      if (Date.now() > deadline) throw new Error(`${name} did not start:\n${output}`);
      if (role === 'worker' ? /running|worker/i.test(output) : await answers(url)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const proc: ServerProcess = {
      name,
      url,
      port: chosen,
      child,
      report: () => `${name}: exit ${child.exitCode ?? child.signalCode ?? 'running'}\n${output}`,
      async kill(signal = 'SIGTERM') {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((r) => child.once('exit', r));
        child.kill(signal);
        await exited;
      },
    };
    processes.set(name, proc);
    return proc;
  }

  return {
    db,
    pool,
    dataDir,
    processes,
    start,
    async close() {
      await Promise.all([...processes.values()].map((p) => p.kill('SIGKILL')));
      await pool.end().catch(() => {});
      await db.stop().catch(() => {});
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/health-check`)).ok;
  } catch {
    return false;
  }
}

export async function login(url: string, role: keyof typeof PASSWORDS): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: PASSWORDS[role] }),
    });
    const body = (await res.json().catch(() => ({}))) as { sessionToken?: string };
    if (body.sessionToken) return body.sessionToken;
    if (attempt > 20) throw new Error(`login as ${role} failed: ${res.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** One screen: the web app's live client and query cache, with the queries an open page would hold. */
export interface Screen {
  name: string;
  admin: boolean;
  live: LiveClient;
  queryClient: QueryClient;
  applied: Array<{ position: number; event: string }>;
  /** (since, upTo] ranges a refetch batch covered instead of messages */
  refetched: Array<[number, number]>;
  /** catch-up batches: the (since, upTo] range each covered and the messages it brought */
  caughtUp: Array<{ since: number; upTo: number; messages: LiveMessage[] }>;
  /** the messages that carry names and words (arrivals, comments), as applied live or in a batch */
  words: Array<{ position: number; text: string }>;
  firstUpTo?: number;
  /**
   * What happened to the screen, in order, one short line each (connections, batches, resyncs,
   * applied positions): a lost message's report shows the screen's story around it.
   */
  story: Array<{ near?: number; line: string }>;
  /** drops the connection and comes back after `ms` with its last position, as a phone on Wi-Fi does */
  reconnect(ms: number): void;
  close(): void;
}

const CARRY_WORDS = new Set(['gallery:item-added', 'comments:added']);

export function openScreen(
  name: string,
  url: string,
  token: string,
  admin: boolean,
  watch: { stories: number[] },
): Screen {
  const http = client(url, token);
  const get = async (path: string) => {
    const answer = await http('GET', path);
    if (answer.status !== 200) throw Object.assign(new Error(`${path}: ${answer.status}`), { status: answer.status });
    return answer.body;
  };
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        retry: (count, error) => (error as { status?: number }).status !== 404 && count < 20,
        retryDelay: 250,
      },
    },
  });
  const observe = (queryKey: QueryKey, path: string) =>
    new QueryObserver(queryClient, { queryKey, queryFn: () => get(path) }).subscribe(() => {});
  const unsubscribes = [observe(['gallery', { page: 1, q: '' }], '/api/gallery?page=1')];
  for (const id of watch.stories) {
    unsubscribes.push(observe(['stories', id], `/api/stories/${id}`));
    unsubscribes.push(observe(['stories', id, 'comments'], `/api/stories/${id}/comments`));
  }
  if (admin) unsubscribes.push(observe(['admin', 'queue'], '/api/admin/queue'));

  const screen: Screen = {
    name,
    admin,
    queryClient,
    applied: [],
    refetched: [],
    caughtUp: [],
    words: [],
    story: [],
    live: undefined as unknown as LiveClient,
    reconnect(ms) {
      tell(`drops its connection for ${ms} ms`);
      screen.live.socket.disconnect();
      setTimeout(() => screen.live.socket.connect(), ms);
    },
    close() {
      for (const unsubscribe of unsubscribes) unsubscribe();
      screen.live.close();
      queryClient.clear();
    },
  };
  let last: number | undefined;
  const began = performance.now();
  const tell = (line: string, near?: number) =>
    screen.story.push({ near, line: `${Math.round(performance.now() - began)} ms: ${line}` });
  screen.live = startLiveClient(
    (auth) => io(url, { auth, transports: ['websocket'], reconnectionDelay: 100, reconnectionDelayMax: 1000 }) as never,
    queryClient,
    () => token,
    {
      resync: () => tell(`resync from ${screen.live.sequence.lastPosition}`, screen.live.sequence.lastPosition),
      connected: (connected) => tell(connected ? 'connected' : 'disconnected'),
      applied: (message: LiveMessage) => {
        screen.applied.push({ position: message.payload.position, event: message.event });
        tell(
          `applied ${message.payload.position} ${message.event} (after ${message.payload.after})`,
          message.payload.position,
        );
        if (CARRY_WORDS.has(message.event)) {
          screen.words.push({ position: message.payload.position, text: JSON.stringify(message.payload) });
        }
        last = message.payload.position;
      },
      batch: (batch, since) => {
        const positions = batch.messages.map((m) => `${m.payload.position} ${m.event}`).join(', ');
        tell(`batch since ${since} up to ${batch.upTo}${batch.refetch ? ', refetch' : ''}: ${positions}`, batch.upTo);
        screen.firstUpTo ??= batch.upTo;
        if (!batch.refetch && since !== undefined)
          screen.caughtUp.push({ since, upTo: batch.upTo, messages: batch.messages as LiveMessage[] });
        if (batch.refetch) screen.refetched.push([last ?? batch.upTo, batch.upTo]);
        last = Math.max(last ?? 0, batch.upTo);
      },
    },
  );
  return screen;
}
