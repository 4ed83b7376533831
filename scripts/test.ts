import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Failure } from '../tests/support/failureReporter.ts';

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
  /** a vitest phase: what failed in it is written to this file (tests/support/failureReporter.ts) */
  failures?: string;
}
interface Result {
  name: string;
  seconds: number;
  status: number;
  /** a quiet phase's output */
  output: string;
  failures?: string;
}

// Node's compile cache for every process of the run, the static checks' included (vitest.config.ts)
process.env.NODE_COMPILE_CACHE ??= path.join(root, 'node_modules/.cache/node-compile-cache');

/**
 * The usual report; each file's start and end in test-results/timings-PHASE.json (vitest's JSON
 * report), to see which files overlap and which one the phase waited for at its end; and what failed,
 * in test-results/failures-PHASE.json, to repeat at the end of the run.
 */
const timings = (phase: string) => [
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=test-results/timings-${phase}.json`,
  '--reporter=./tests/support/failureReporter.ts',
];
const failuresFile = (phase: string) => path.join(root, `test-results/failures-${phase}.json`);

const results: Result[] = [];
const started = performance.now();

function run({ name, cmd, args, quiet, failures }: Phase): Promise<Result> {
  const t0 = performance.now();
  // a report left by an earlier run must not stand for this one
  if (failures) rmSync(failures, { force: true });
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: root,
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: failures ? { ...process.env, FAILURES_FILE: failures } : process.env,
    });
    const output: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
    const done = (status: number) => {
      const text = Buffer.concat(output).toString();
      const result = { name, seconds: (performance.now() - t0) / 1000, status, output: text, failures };
      if (quiet && status !== 0) process.stdout.write(`\n✗ ${name} failed:\n${text}\n`);
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
      failures: failuresFile('int'),
    },
  ],
  [
    {
      name: 'e2e',
      cmd: 'npx',
      args: ['vitest', 'run', '--project', 'e2e', ...timings('e2e')],
      failures: failuresFile('e2e'),
    },
  ],
]);

/**
 * What a failed phase's summary keeps: CI shows about the last hundred lines of a run. The first
 * failures in full, then every failure's name on a line (the list ends the run, where it is read).
 */
const DETAILED = 2;
const ERROR_LINES = 30;
const NAMED = 20;
const OUTPUT_LINES = 40;
const indent = (text: string, lines: number) =>
  text
    .split('\n')
    .slice(0, lines)
    .map((line) => `    ${line}`)
    .join('\n');

/**
 * A failed phase's failures, repeated where the run ends: CI keeps a run's last lines, and a phase's
 * own report of them may be minutes of output further up.
 */
function whatFailed(r: Result): string {
  const heading = `\n✗ ${r.name}:`;
  if (r.failures && existsSync(r.failures)) {
    const failures = JSON.parse(readFileSync(r.failures, 'utf8')) as Failure[];
    if (failures.length === 0)
      return `${heading} no test failed; see its output above (a worker that exited, a timeout)`;
    const named = (f: Failure) => `${f.file} > ${f.name}`;
    const detailed = failures
      .slice(0, DETAILED)
      .map((f) => [`  ${named(f)}`, ...f.errors.map((e) => indent(e, ERROR_LINES))].join('\n'));
    const list = failures.slice(0, NAMED).map((f) => `  ✗ ${named(f)}`);
    const more = failures.length > NAMED ? [`  and ${failures.length - NAMED} more`] : [];
    return [heading, ...detailed, `\n${r.name}: ${failures.length} failed`, ...list, ...more].join('\n');
  }
  const output = r.output.trimEnd().split('\n').slice(-OUTPUT_LINES).join('\n');
  return output ? `${heading}\n${output}` : `${heading} see its output above`;
}

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
  for (const r of results.filter((result) => result.status !== 0)) console.log(whatFailed(r));
  console.error('\n✗ failed');
  process.exit(1);
}
console.log('\n✓ all tests passed');
