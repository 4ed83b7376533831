import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Each test file's seconds in a full run of `npm test` (written by `npm run test:times` from that
 * run's test-results/timings-*.json): what a fresh clone knows of the files before it has run them.
 */
export const FILE_TIMES = path.join(import.meta.dirname, 'fileTimes.json');

/**
 * The longest files first, so that no long one starts near the end while the others are done and
 * cores wait (docs/test-times.md, eighth pass). Vitest does this from its own cache of the last run;
 * a fresh clone, as in CI, has none, and vitest then started the largest files first, by bytes: a
 * small file that waits 20 s on a job's retries (`deadLetter.int`) started last and the phase waited
 * for it alone. A file's time is vitest's record of its last run here if there is one, else the
 * committed one, else the median (a new file). Projects keep vitest's order.
 */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    let committed: Record<string, number> = {};
    try {
      committed = JSON.parse(fs.readFileSync(FILE_TIMES, 'utf8')) as Record<string, number>;
    } catch {
      // none: every file counts as the median, the order vitest's
    }
    const values = Object.values(committed).sort((a, b) => a - b);
    const median = values[Math.floor(values.length / 2)] ?? 0;
    const root = this.ctx.config.root;
    const seconds = (spec: TestSpecification) => {
      const last = this.ctx.cache.getTestSpecificationResult(spec);
      if (last && !last.failed) return last.duration / 1000;
      return committed[path.relative(root, spec.moduleId)] ?? median;
    };
    const known = new Map(files.map((spec) => [spec, seconds(spec)]));
    const sorted = await super.sort(files);
    const order = new Map(sorted.map((spec, i) => [spec, i]));
    return [...files].sort((a, b) => {
      if (a.project.name !== b.project.name) return order.get(a)! - order.get(b)!;
      return known.get(b)! - known.get(a)! || order.get(a)! - order.get(b)!;
    });
  }
}
