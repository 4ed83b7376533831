import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEvents, runProjections } from '../tests/support/commands.ts';
import { freshDatabase } from '../tests/support/database.ts';

/**
 * Tests that check what `events` or `projections` does run it in-process (tests/support/commands.ts, decision 135):
 * it must answer as the command line does, in exit status and in what it prints.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
let db: Awaited<ReturnType<typeof freshDatabase>>;
let dataDir: string;

beforeAll(async () => {
  db = await freshDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-events-'));
});
afterAll(async () => {
  await db.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Each command's cases: the same arguments, run by the command line and in-process. */
const COMMANDS = [
  {
    name: 'events',
    run: runEvents,
    cases: [[['verify']], [['export']], [['frobnicate']], [['export', '--from', 'x']], [['--help']]],
  },
  { name: 'projections', run: runProjections, cases: [[['check']], [['rebuild']], [['frobnicate']], [['--help']]] },
];

describe.each(COMMANDS)('$name in-process', ({ name, run, cases }) => {
  it.each(cases)('answers %j as the CLI does', async (args) => {
    const env = { DATABASE_URL: db.url, DATA_DIR: dataDir };
    const cli = spawnSync(process.execPath, [path.join(ROOT, `scripts/${name}.ts`), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    const inProcess = await run(args, env);
    expect(inProcess).toEqual({ code: cli.status, out: cli.stdout, err: cli.stderr });
  });
});
