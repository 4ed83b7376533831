import fs from 'node:fs';
import path from 'node:path';
import { FILE_TIMES } from '../tests/support/sequencer.ts';

/**
 * Writes tests/support/fileTimes.json, each test file's seconds in the last `npm test` (its
 * test-results/timings-*.json), for the test order of a fresh clone (tests/support/sequencer.ts).
 * Run it after a full `npm test` on this kind of machine, and commit what it writes.
 */
const root = path.resolve(import.meta.dirname, '..');
const dir = path.join(root, 'test-results');
const times: Record<string, number> = {};
for (const name of fs.readdirSync(dir).filter((f) => /^timings-.*\.json$/.test(f))) {
  const report = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as {
    testResults: Array<{ name: string; startTime: number; endTime: number }>;
  };
  for (const file of report.testResults)
    times[path.relative(root, file.name)] = Math.round((file.endTime - file.startTime) / 100) / 10;
}
const sorted = Object.fromEntries(Object.entries(times).sort(([a], [b]) => a.localeCompare(b)));
fs.writeFileSync(FILE_TIMES, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`${Object.keys(sorted).length} files' times written to ${path.relative(root, FILE_TIMES)}`);
