import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStore } from '#events/store.ts';
import { chainSealer } from '#projections/chain/chainSealer.ts';
import { runBatch } from '#projections/runner.ts';
import { runEvents, runProjections } from '../tests/support/commands.ts';
import { freshDatabase } from '../tests/support/database.ts';
import { approved, meta, submitted } from '../tests/support/fixtures.ts';

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

describe('events on a log sealed under LOG_HMAC_KEY', () => {
  const KEY = 'the key this command is given, and not its process';

  it('takes the key from the settings it is given, as every other setting, not from process.env', async () => {
    expect(process.env.LOG_HMAC_KEY).toBeUndefined();
    const keyed = await freshDatabase();
    const restored = await freshDatabase();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-keyed-'));
    try {
      // a log appended and sealed under the key, as a server holding it does
      process.env.LOG_HMAC_KEY = KEY;
      try {
        const store = new EventStore(keyed.pool);
        for (let i = 1; i <= 3; i++) await store.append(`artwork-${i}`, 0, [submitted(i), approved(i)], meta());
        await runBatch(store, chainSealer, 1000);
      } finally {
        delete process.env.LOG_HMAC_KEY;
      }
      const visitor = randomUUID();
      await keyed.pool.query(`INSERT INTO subjects (visitor_id) VALUES ($1)`, [visitor]);
      const env = { DATABASE_URL: keyed.url, DATA_DIR: dir, LOG_HMAC_KEY: KEY };

      // an erasure appends its event, tagged under the key it was given
      expect(await runEvents(['erase', '--visitor', visitor], env)).toMatchObject({ code: 0, err: '' });
      // the chain, and that event's tag, are checked under it
      const verified = await runEvents(['verify'], env);
      expect(verified).toMatchObject({ code: 0, err: '' });
      expect(verified.out).toMatch(/^ok: 6 events checked, head seq 6, 1 not yet sealed;/);
      // the export is read, checked and restored under it
      const file = path.join(dir, 'log.ndjson');
      const exported = await runEvents(['export'], env);
      expect(exported.code).toBe(0);
      fs.writeFileSync(file, exported.out);
      expect(await runEvents(['verify', '--file', file], env)).toMatchObject({ code: 0, err: '' });
      const imported = await runEvents(['import', file], { ...env, DATABASE_URL: restored.url });
      expect(imported).toMatchObject({ code: 0, err: '' });
      expect(imported.out).toContain('imported 6 events (chain head seq 6)');

      // without it, the same log is not checked: the key above came from the settings alone
      const unkeyed = await runEvents(['verify'], { DATABASE_URL: keyed.url, DATA_DIR: dir });
      expect(unkeyed).toMatchObject({ code: 1, err: expect.stringContaining('set LOG_HMAC_KEY to verify it') });
    } finally {
      await keyed.drop();
      await restored.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
