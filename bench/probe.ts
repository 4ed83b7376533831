import fs from 'node:fs';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import pg from 'pg';

/**
 * Loaded into a server under measurement with `--import` (bench/visit.ts, BENCH_VISIT_STEPS): counts
 * the SQL statements the process sends, by their first words, and its CPU time. Each SIGUSR2 writes
 * what was counted since the last one to BENCH_PROBE_FILE (JSON) and starts counting again. With
 * BENCH_PROBE_PROFILE_DIR set, the span between two signals is also CPU-profiled there (`N.cpuprofile`).
 */
const file = process.env.BENCH_PROBE_FILE!;
const profileDir = process.env.BENCH_PROBE_PROFILE_DIR;
let statements = new Map<string, number>();
let cpu = process.cpuUsage();
let span = 0;

const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
  const first = args[0];
  const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text;
  if (text) {
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 70);
    statements.set(key, (statements.get(key) ?? 0) + 1);
  }
  return query.apply(this, args);
} as typeof pg.Client.prototype.query;

const session = profileDir ? new Session() : undefined;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
}

process.on('SIGUSR2', () => {
  void (async () => {
    const used = process.cpuUsage(cpu);
    const counted = Object.fromEntries([...statements].sort((a, b) => b[1] - a[1]));
    if (session) {
      const { profile } = await session.post('Profiler.stop');
      fs.writeFileSync(path.join(profileDir!, `${span}.cpuprofile`), JSON.stringify(profile));
      await session.post('Profiler.start');
    }
    // the next span starts after the profile is written: its cost is in neither
    statements = new Map();
    cpu = process.cpuUsage();
    span++;
    // written whole, then renamed: the reader waits for the file to appear
    fs.writeFileSync(`${file}.tmp`, JSON.stringify({ cpuMs: (used.user + used.system) / 1000, statements: counted }));
    fs.renameSync(`${file}.tmp`, file);
  })();
});
