import { spawn } from 'node:child_process';
import path from 'node:path';

const SCALE = Number(process.env.CONVERGENCE_SCALE ?? 10);

/**
 * The convergence test of issue 9 at SCALE times its CI size (tests/convergence.int.test.ts: two API
 * processes and a worker on their own PostgreSQL, 20 screens running the web app's live code, faults
 * injected). It checks itself; this prints its summary line as a table row.
 */
export async function benchConvergence(): Promise<string> {
  const root = path.resolve(import.meta.dirname, '..');
  const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const child = spawn(process.execPath, [vitest, 'run', '--project', 'int', 'tests/convergence.int.test.ts'], {
    cwd: root,
    env: { ...process.env, CONVERGENCE_SCALE: String(SCALE) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  // colour codes out, then the line the test prints
  // oxlint-disable-next-line no-control-regex -- the escape character is what this removes
  const summary = output.replace(/\x1b\[[0-9;]*m/g, '').match(/convergence \(seed \d+\):[^\n]*/)?.[0];
  return [
    `### Convergence at ${SCALE}x the CI size (tests/convergence.int.test.ts, CONVERGENCE_SCALE=${SCALE})`,
    '',
    `Result: ${code === 0 ? 'passed' : `FAILED (exit ${code})`}`,
    '',
    `\`${summary ?? 'no summary printed'}\``,
  ].join('\n');
}
