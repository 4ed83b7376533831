import os from 'node:os';
import { benchEventLog } from './eventLog.ts';
import { benchDatabase } from './support.ts';

/** npm run bench: prints Markdown tables to paste into BENCHMARKS.md. */
const db = await benchDatabase();
try {
  console.log(`## Run of ${new Date().toISOString()} — ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, Node ${process.version}`);
  console.log('');
  console.log(await benchEventLog(db.pool));
} finally {
  await db.stop();
}
