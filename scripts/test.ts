import { spawn } from 'node:child_process';
import path from 'node:path';

/**
 * Every check and test tier: the build, then the static checks (typecheck, format, lint) alongside the
 * unit and integration tests (real PostgreSQL), then the end-to-end tests (real Chromium). At the end,
 * how long each phase took, so that the next slowdown is seen when it happens (docs/test-times.md).
 */
const root = path.resolve(import.meta.dirname, '..');

interface Phase {
  name: string;
  cmd: string;
  args: string[];
  /** quiet: its output is kept and shown only when it fails (it runs beside a phase that prints) */
  quiet?: boolean;
}
interface Result {
  name: string;
  seconds: number;
  status: number;
}

// Node's compile cache for every process of the run, the static checks' included (vitest.config.ts)
process.env.NODE_COMPILE_CACHE ??= path.join(root, 'node_modules/.cache/node-compile-cache');

/**
 * The usual report, and each file's start and end in test-results/timings-PHASE.json (vitest's JSON
 * report), to see which files overlap and which one the phase waited for at its end.
 */
const timings = (phase: string) => [
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=test-results/timings-${phase}.json`,
];

const results: Result[] = [];
const started = performance.now();

function run({ name, cmd, args, quiet }: Phase): Promise<Result> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const output: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
    const done = (status: number) => {
      const result = { name, seconds: (performance.now() - t0) / 1000, status };
      if (quiet && status !== 0) process.stdout.write(`\n✗ ${name} failed:\n${Buffer.concat(output).toString()}\n`);
      else if (quiet) console.log(`✓ ${name} (${result.seconds.toFixed(0)} s)`);
      resolve(result);
    };
    child.on('error', (error) => {
      output.push(Buffer.from(String(error)));
      done(1);
    });
    child.on('close', (code) => done(code ?? 1));
  });
}

/**
 * Runs the groups in turn, the phases of a group at once. A failed build stops the run (everything
 * after needs it); any other failure does not, so that one run shows every failing phase.
 */
async function runGroups(groups: Phase[][]): Promise<boolean> {
  let ok = true;
  for (const group of groups) {
    const outcomes = await Promise.all(group.map(run));
    results.push(...outcomes);
    if (outcomes.some((r) => r.status !== 0)) {
      ok = false;
      if (group.some((phase) => phase.name === 'build')) break;
    }
  }
  return ok;
}

const ok = await runGroups([
  // The build comes first: it generates web/src/routeTree.gen.ts, which the typecheck needs, and the
  // web app that the integration and end-to-end tests serve.
  [{ name: 'build', cmd: 'npm', args: ['run', 'build'] }],
  [
    { name: 'typecheck', cmd: 'npm', args: ['run', 'typecheck'], quiet: true },
    { name: 'format', cmd: 'npm', args: ['run', 'format:check'], quiet: true },
    { name: 'lint', cmd: 'npm', args: ['run', 'lint'], quiet: true },
    {
      name: 'unit + int',
      cmd: 'npx',
      args: ['vitest', 'run', '--project', 'unit', '--project', 'int', ...timings('int')],
    },
  ],
  [{ name: 'e2e', cmd: 'npx', args: ['vitest', 'run', '--project', 'e2e', ...timings('e2e')] }],
]);

const total = (performance.now() - started) / 1000;
const clock = (seconds: number) => {
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};
console.log('\nphase        time   result');
for (const r of results)
  console.log(`${r.name.padEnd(12)} ${clock(r.seconds).padStart(5)}  ${r.status === 0 ? 'ok' : 'FAILED'}`);
console.log(`${'total'.padEnd(12)} ${clock(total).padStart(5)}  (typecheck, format and lint run beside unit + int)`);
if (!ok) {
  console.error('\n✗ failed');
  process.exit(1);
}
console.log('\n✓ all tests passed');
