import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** Every test tier in turn: unit, integration (real PostgreSQL), end-to-end (real Chromium). */
const root = path.resolve(import.meta.dirname, '..');
const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit' }).status ?? 1;

// The build comes first: it generates web/src/routeTree.gen.ts, which the typecheck needs.
const steps: Array<[string, string[]]> = [
  ['npm', ['run', 'build']],
  ['npm', ['run', 'typecheck']],
  ['npm', ['run', 'format:check']],
  ['npm', ['run', 'lint']],
  ['npx', ['vitest', 'run', '--project', 'unit', '--project', 'int']],
  ['npx', ['vitest', 'run', '--project', 'e2e']],
];
for (const [cmd, args] of steps) {
  const status = run(cmd, args);
  if (status !== 0) {
    console.error(`\n✗ ${cmd} ${args.join(' ')} failed`);
    process.exit(status);
  }
}
console.log('\n✓ all tests passed');
