import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chainSealer } from '#projections/chain/chainSealer.ts';
import { runBatch } from '#projections/runner.ts';
import { freshDatabase } from '../tests/support/database.ts';
import { approved, meta, submitted } from '../tests/support/fixtures.ts';
import { verifyChain } from './chain.ts';
import { EventStore } from './store.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

let db: Awaited<ReturnType<typeof freshDatabase>>;
let store: EventStore;
beforeEach(async () => {
  db = await freshDatabase();
  store = new EventStore(db.pool);
  for (let i = 1; i <= 20; i++) await store.append(`artwork-${i}`, 0, [submitted(i), approved(i)], meta());
  await runBatch(store, chainSealer, 10_000);
});
afterEach(() => db.drop());

/** Tampering as a database superuser would: with the append-only triggers switched off. */
async function tamper(sql: string, params: unknown[] = []) {
  const client: pg.PoolClient = await db.pool.connect();
  try {
    await client.query(`SET session_replication_role = replica`);
    await client.query(sql, params);
  } finally {
    await client.query(`RESET session_replication_role`);
    client.release();
  }
}

function verifyCli() {
  const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts/events.ts'), 'verify'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: db.url },
    encoding: 'utf8',
  });
  return { code: run.status, out: run.stdout + run.stderr };
}

describe('events verify', () => {
  it('passes on an untouched log', async () => {
    expect(await verifyChain(db.pool)).toEqual({ ok: true, checked: 40, unsealed: 0 });
    const cli = verifyCli();
    expect(cli.code).toBe(0);
    expect(cli.out).toContain('40 events checked');
  });

  it('names the position of an event edited by SQL', async () => {
    await tamper(`UPDATE events SET data = jsonb_set(data, '{artistName}', '"Mallory"') WHERE position = 17`);
    expect(await verifyChain(db.pool)).toMatchObject({ ok: false, firstBadPosition: 17, reason: 'event edited' });
    const cli = verifyCli();
    expect(cli.code).toBe(1);
    expect(cli.out).toContain('position 17');
  });

  it('names the position of a removed event', async () => {
    await tamper(`DELETE FROM events WHERE position = 9`);
    expect(await verifyChain(db.pool)).toMatchObject({ ok: false, firstBadPosition: 9 });
  });

  it('finds a removed event even when its chain entry went too', async () => {
    await tamper(`DELETE FROM events WHERE position = 12`);
    await tamper(`DELETE FROM event_chain WHERE position = 12`);
    expect(await verifyChain(db.pool)).toMatchObject({ ok: false, firstBadPosition: 13 });
  });

  it('names an event inserted into the sealed part of the log', async () => {
    await tamper(
      `INSERT INTO events (position, transaction_id, stream_id, stream_version, type, schema_version, data, metadata)
       OVERRIDING SYSTEM VALUE
       SELECT 5000, transaction_id, 'artwork-999', 1, type, schema_version, data, metadata FROM events WHERE position = 3`,
    );
    expect(await verifyChain(db.pool)).toMatchObject({ ok: false, firstBadPosition: 5000, reason: 'event inserted' });
  });

  it('counts events not yet sealed without failing', async () => {
    await store.append('artwork-77', 0, [submitted(77)], meta());
    expect(await verifyChain(db.pool)).toEqual({ ok: true, checked: 40, unsealed: 1 });
  });
});
