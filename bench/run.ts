import os from 'node:os';
import { benchAbuse } from './abuse.ts';
import { benchAuditor } from './auditor.ts';
import { benchConvergence } from './convergence.ts';
import { benchEventLog } from './eventLog.ts';
import { benchFanout } from './fanout.ts';
import { benchGallery } from './gallery.ts';
import { benchKeepsake } from './keepsake.ts';
import { benchMontage } from './montage.ts';
import { benchMural } from './mural.ts';
import { benchShow } from './show.ts';
import { benchReconnect } from './reconnect.ts';
import { benchTimeTravel } from './timeTravel.ts';
import { benchDatabase } from './support.ts';
import { benchSteadyLag } from './steadyLag.ts';
import { benchUpload } from './upload.ts';
import { benchVisit } from './visit.ts';

/** npm run bench [-- only NAME…]: prints Markdown tables to paste into BENCHMARKS.md. */
const only = process.argv.slice(2);
const wanted = (name: string) => only.length === 0 || only.includes(name);

console.log(
  `## Run of ${new Date().toISOString()} — ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, Node ${process.version}`,
);
for (const [name, run] of [
  ['events', (db: Awaited<ReturnType<typeof benchDatabase>>) => benchEventLog(db.pool)],
  ['gallery', (db: Awaited<ReturnType<typeof benchDatabase>>) => benchGallery(db.pool, db.url)],
  ['upload', (db: Awaited<ReturnType<typeof benchDatabase>>) => benchUpload(db.url)],
  ['fanout', (db: Awaited<ReturnType<typeof benchDatabase>>) => benchFanout(db.url)],
  ['reconnect', (db: Awaited<ReturnType<typeof benchDatabase>>) => benchReconnect(db.pool, db.url)],
  ['time-travel', (db: Awaited<ReturnType<typeof benchDatabase>>) => benchTimeTravel(db.pool, db.url)],
  ['visit', (db: Awaited<ReturnType<typeof benchDatabase>>) => benchVisit(db.pool, db.url)],
  ['auditor', (db: Awaited<ReturnType<typeof benchDatabase>>) => benchAuditor(db.pool, db.url)],
  ['lag', (db: Awaited<ReturnType<typeof benchDatabase>>) => benchSteadyLag(db.pool)],
  ['show', (db: Awaited<ReturnType<typeof benchDatabase>>) => benchShow(db.url)],
  ['mural', (db: Awaited<ReturnType<typeof benchDatabase>>) => benchMural(db.url)],
  ['keepsake', (db: Awaited<ReturnType<typeof benchDatabase>>) => benchKeepsake(db.pool, db.url)],
  // ffmpeg alone, on files in a temp directory; the benchmark database goes unused
  ['montage', () => benchMontage()],
  // two runs, each on a fresh database of its own; the benchmark database goes unused
  ['abuse', () => benchAbuse(benchDatabase)],
  // starts its own database and processes; the benchmark database goes unused
  ['convergence', () => benchConvergence()],
] as const) {
  if (!wanted(name)) continue;
  // each benchmark gets a database of its own, so one's data never slows another
  const db = await benchDatabase();
  try {
    console.log('');
    // the machine may be shared: the load beside each figure says whether it was quiet
    const before = os.loadavg()[0]!.toFixed(1);
    const table = await run(db);
    console.log(table);
    console.log('');
    console.log(`Load average (1 min) on the machine: ${before} before, ${os.loadavg()[0]!.toFixed(1)} after.`);
  } finally {
    await db.stop();
  }
}
