import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate } from '#db/migrate.ts';
import { createPool, openDatabase, startEmbedded } from '#db/postgres.ts';

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

/** CPU seconds (user + system) a process has used, from /proc (clock ticks at USER_HZ = 100). */
export function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
