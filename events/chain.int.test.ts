import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { log } from '#api/observability/logger.ts';
import { systemClock } from '#api/time.ts';
import { chainSealer } from '#projections/chain/chainSealer.ts';
import { runBatch } from '#projections/runner.ts';
import { freshDatabase } from '../tests/support/database.ts';
import { approved, meta, submitted } from '../tests/support/fixtures.ts';
import { waitFor } from '../tests/support/wait.ts';
import { FileAnchorStore } from './anchors.ts';
import { EVENT_COLUMNS_SQL, chainRecord, legacyHash, linkHash, type EventRow } from './canonical.ts';
import { ChainAnchorer, GENESIS_HASH, verifyChain } from './chain.ts';
import { EventStore } from './store.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

let db: Awaited<ReturnType<typeof freshDatabase>>;
let store: EventStore;
let dataDir: string;
let anchors: FileAnchorStore;
beforeEach(async () => {
  db = await freshDatabase();
  store = new EventStore(db.pool);
  for (let i = 1; i <= 20; i++) await store.append(`artwork-${i}`, 0, [submitted(i), approved(i)], meta());
  await runBatch(store, chainSealer, 10_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chain-'));
  anchors = new FileAnchorStore(path.join(dataDir, 'anchors'));
});
afterEach(async () => {
  await db.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

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

function verifyCli(env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts/events.ts'), 'verify'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: db.url, DATA_DIR: dataDir, ...env },
    encoding: 'utf8',
  });
  return { code: run.status, out: run.stdout + run.stderr };
}

const resetSealer = () =>
  tamper(`UPDATE projection_checkpoints SET transaction_id = '0', position = 0, seq = 0 WHERE name = 'chain'`);

describe('events verify', () => {
  it('passes on an untouched log, and anchors its head outside the database', async () => {
    expect(await verifyChain(db.pool)).toMatchObject({ ok: true, checked: 40, unsealed: 0, head: { seq: 40 } });
    const cli = verifyCli();
    expect(cli.out).toContain('40 events checked');
    expect(cli.code).toBe(0);
    const head = JSON.parse(fs.readFileSync(path.join(dataDir, 'anchors/head.json'), 'utf8'));
    expect(head).toMatchObject({ seq: 40, hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('names the seq and position of an event edited by SQL', async () => {
    await tamper(`UPDATE events SET data = jsonb_set(data, '{artistName}', '"Mallory"') WHERE position = 17`);
    expect(await verifyChain(db.pool)).toMatchObject({
      ok: false,
      firstBadSeq: 17,
      firstBadPosition: 17,
      reason: 'event edited',
    });
    const cli = verifyCli();
    expect(cli.code).toBe(1);
    expect(cli.out).toContain('seq 17 (position 17)');
  });

  it('names the position of a removed event', async () => {
    await tamper(`DELETE FROM events WHERE position = 9`);
    expect(await verifyChain(db.pool)).toMatchObject({ ok: false, firstBadSeq: 9, firstBadPosition: 9 });
  });

  it('finds a removed event even when its chain entry went too', async () => {
    await tamper(`DELETE FROM events WHERE position = 12`);
    await tamper(`DELETE FROM event_chain WHERE position = 12`);
    expect(await verifyChain(db.pool)).toMatchObject({ ok: false, firstBadSeq: 12 });
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
    expect(await verifyChain(db.pool)).toMatchObject({ ok: true, checked: 40, unsealed: 1 });
  });

  it('fails when two events swap their transaction ids (the order the log is replayed in)', async () => {
    // an approval and a later rejection: swapping their commit order would change the outcome
    await store.append(
      'artwork-1',
      2,
      [
        {
          type: 'ArtworkRejected',
          data: { artworkId: 1, adminNotesRef: null, rejectedAt: '2025-09-03T10:00:00.000Z' },
        },
      ],
      meta('admin'),
    );
    await runBatch(store, chainSealer, 10_000);
    await tamper(
      `UPDATE events e SET transaction_id = o.transaction_id
       FROM events o WHERE (e.position, o.position) IN ((2, 41), (41, 2))`,
    );
    expect(await verifyChain(db.pool)).toMatchObject({
      ok: false,
      firstBadSeq: 3,
      reason: 'chain out of commit order',
    });
  });
});

describe('the chain table and the commit order are kept by the database', () => {
  it('refuses UPDATE, DELETE and TRUNCATE on event_chain', async () => {
    await expect(db.pool.query(`UPDATE event_chain SET hash = repeat('0', 64) WHERE seq = 3`)).rejects.toThrow(
      /append-only \(UPDATE refused\)/,
    );
    await expect(db.pool.query(`DELETE FROM event_chain WHERE seq = 40`)).rejects.toThrow(/append-only/);
    await expect(db.pool.query(`TRUNCATE event_chain`)).rejects.toThrow(/append-only/);
    expect(await verifyChain(db.pool)).toMatchObject({ ok: true, checked: 40 });
  });

  it('overrides a transaction_id supplied by an INSERT, so no event can wait in the future', async () => {
    await db.pool.query(
      `INSERT INTO events (transaction_id, stream_id, stream_version, type, schema_version, data, metadata)
       SELECT '9999999999', 'artwork-500', 1, type, schema_version, data, metadata FROM events WHERE position = 1`,
    );
    const { rows } = await db.pool.query<{ future: boolean }>(
      `SELECT transaction_id >= pg_snapshot_xmax(pg_current_snapshot()) AS future FROM events WHERE stream_id = 'artwork-500'`,
    );
    expect(rows[0]!.future).toBe(false);
    await runBatch(store, chainSealer, 10_000);
    expect(await verifyChain(db.pool)).toMatchObject({ ok: true, checked: 41, unsealed: 0 });
  });

  it('fails verify on an event parked in a future transaction behind the trigger', async () => {
    await tamper(
      `INSERT INTO events (transaction_id, stream_id, stream_version, type, schema_version, data, metadata)
       SELECT '9999999999', 'artwork-500', 1, type, schema_version, data, metadata FROM events WHERE position = 1`,
    );
    expect(await verifyChain(db.pool)).toMatchObject({ ok: false, reason: 'event in a future transaction' });
  });
});

describe('anchors outside the database', () => {
  it('catch a cut tail', async () => {
    expect(await verifyChain(db.pool, { anchors, clock: systemClock })).toMatchObject({ ok: true, head: { seq: 40 } });
    await tamper(`DELETE FROM event_chain WHERE seq > 38`);
    await tamper(`DELETE FROM events WHERE position > 38`);
    expect(await verifyChain(db.pool)).toMatchObject({ ok: true, checked: 38 });
    expect(await verifyChain(db.pool, { anchors, clock: systemClock })).toMatchObject({
      ok: false,
      firstBadSeq: 39,
      reason: 'the log ends at seq 38, before the anchored head 40',
    });
    const cli = verifyCli();
    expect(cli.code).toBe(1);
    expect(cli.out).toContain('before the anchored head 40');
  });

  it('catch an edit re-sealed after wiping the chain', async () => {
    expect(verifyCli().code).toBe(0);
    await tamper(`UPDATE events SET data = jsonb_set(data, '{artistName}', '"Mallory"') WHERE position = 17`);
    await tamper(`DELETE FROM event_chain`);
    await resetSealer();
    await runBatch(store, chainSealer, 10_000);
    // the database alone cannot tell
    expect(await verifyChain(db.pool)).toMatchObject({ ok: true, checked: 40 });
    expect(await verifyChain(db.pool, { anchors, clock: systemClock })).toMatchObject({
      ok: false,
      firstBadSeq: 40,
      reason: 'disagrees with the anchored head',
    });
    expect(verifyCli().code).toBe(1);
  });

  it('are written by the anchorer on its own, round after round, as the chain grows', async () => {
    const anchorer = new ChainAnchorer(db.pool, anchors, log.child({ component: 'chain anchorer' }), systemClock, 50);
    anchorer.start();
    try {
      await waitFor(async () => (await anchors.latest())?.seq === 40);
      await store.append('artwork-31', 0, [submitted(31)], meta());
      await runBatch(store, chainSealer, 10_000);
      await waitFor(async () => (await anchors.latest())?.seq === 41);
      // a link sealed since the last round that no longer matches its event is not anchored
      await anchorer.stop();
      await store.append('artwork-32', 0, [submitted(32)], meta());
      await runBatch(store, chainSealer, 10_000);
      await tamper(`UPDATE events SET data = jsonb_set(data, '{title}', '"forged"') WHERE position = 42`);
      expect(await anchorer.anchorNow()).toMatchObject({ ok: false, firstBadSeq: 42 });
      expect((await anchors.latest())?.seq).toBe(41);
    } finally {
      await anchorer.stop();
    }
  });

  it('are verified incrementally from the last anchored head', async () => {
    expect(await verifyChain(db.pool, { anchors, clock: systemClock })).toMatchObject({ ok: true });
    await store.append('artwork-30', 0, [submitted(30)], meta());
    await runBatch(store, chainSealer, 10_000);
    const from = await anchors.latest();
    expect(await verifyChain(db.pool, { anchors, clock: systemClock, from })).toMatchObject({
      ok: true,
      checked: 1,
      head: { seq: 41 },
    });
    expect(await anchors.latest()).toMatchObject({ seq: 41 });
    expect((await anchors.all()).map((a) => a.seq)).toEqual([40, 41, 41]);
  });
});

// The tests below set and remove the key; the files after this one in its worker's process get back
// whatever was there before (decision 157)
const keyBefore = process.env.LOG_HMAC_KEY;
afterAll(() => {
  if (keyBefore === undefined) delete process.env.LOG_HMAC_KEY;
  else process.env.LOG_HMAC_KEY = keyBefore;
});

describe('LOG_HMAC_KEY', () => {
  afterEach(() => {
    delete process.env.LOG_HMAC_KEY;
  });

  it('seals keyed links that cannot be verified, nor re-sealed, without the key', async () => {
    process.env.LOG_HMAC_KEY = 'k'.repeat(32);
    await store.append('artwork-31', 0, [submitted(31)], meta());
    await runBatch(store, chainSealer, 10_000);
    const { rows } = await db.pool.query(`SELECT scheme FROM event_chain WHERE seq = 41`);
    expect(rows[0].scheme).toBe(3);
    expect(await verifyChain(db.pool)).toMatchObject({ ok: true, checked: 41 });
    expect(await verifyChain(db.pool, { hmacKey: 'another key' })).toMatchObject({ ok: false, firstBadSeq: 41 });
    delete process.env.LOG_HMAC_KEY;
    expect(await verifyChain(db.pool)).toMatchObject({ ok: false, firstBadSeq: 41, reason: /LOG_HMAC_KEY/ });
    // a superuser without the key edits the newest event and re-seals its link with the plain scheme
    process.env.LOG_HMAC_KEY = 'k'.repeat(32);
    await store.append('artwork-32', 0, [submitted(32)], meta());
    await runBatch(store, chainSealer, 10_000);
    delete process.env.LOG_HMAC_KEY;
    await tamper(`UPDATE events SET data = jsonb_set(data, '{title}', '"forged"') WHERE position = 42`);
    await tamper(`DELETE FROM event_chain WHERE seq = 42`);
    await tamper(`UPDATE projection_checkpoints c SET transaction_id = e.transaction_id, position = e.position, seq = 41
                  FROM events e WHERE e.position = 41 AND c.name = 'chain'`);
    // the sealer without the key refuses; the superuser writes the plain link by hand
    await expect(runBatch(store, chainSealer, 10_000)).rejects.toThrow(/LOG_HMAC_KEY/);
    const { rows: forged } = await db.pool.query<EventRow>(
      `SELECT e.position, ${EVENT_COLUMNS_SQL} FROM events e WHERE e.position = 42`,
    );
    const head = (await db.pool.query(`SELECT hash FROM event_chain WHERE seq = 41`)).rows[0].hash;
    await db.pool.query(`INSERT INTO event_chain (seq, position, prev_hash, hash, scheme) VALUES (42, 42, $1, $2, 2)`, [
      head,
      linkHash(chainRecord(forged[0]!, 42, head, {})),
    ]);
    expect(await verifyChain(db.pool, { hmacKey: 'k'.repeat(32) })).toMatchObject({
      ok: false,
      firstBadSeq: 42,
      reason: 'link sealed with an older scheme',
    });
  });
});

describe('LOG_HMAC_KEY: only the key holder appends, and a sealer without it refuses', () => {
  const KEY = 'k'.repeat(32);
  beforeEach(async () => {
    process.env.LOG_HMAC_KEY = KEY;
    await store.append('artwork-31', 0, [submitted(31)], meta());
    await runBatch(store, chainSealer, 10_000);
  });
  afterEach(() => {
    delete process.env.LOG_HMAC_KEY;
  });

  it('fails verify on a row inserted by hand, which the sealer refuses to seal', async () => {
    // a superuser copies an event into a new stream: triggers on, the database's own order, no tag
    await db.pool.query(
      `INSERT INTO events (stream_id, stream_version, type, schema_version, data, metadata)
       SELECT 'artwork-999', 1, type, schema_version, data, metadata FROM events WHERE position = 41`,
    );
    await expect(runBatch(store, chainSealer, 10_000)).rejects.toThrow(/no valid tag under LOG_HMAC_KEY/);
    expect(await db.pool.query(`SELECT max(seq)::int AS head FROM event_chain`)).toMatchObject({
      rows: [{ head: 41 }],
    });
    expect(await verifyChain(db.pool)).toMatchObject({
      ok: false,
      firstBadSeq: 42,
      reason: 'event inserted without LOG_HMAC_KEY (no valid append tag)',
    });
    // a copy of a tagged row keeps its tag, and the database refuses the second use
    await expect(
      db.pool.query(
        `INSERT INTO events (stream_id, stream_version, type, schema_version, data, metadata, tag)
         SELECT stream_id, 2, type, schema_version, data, metadata, tag FROM events WHERE position = 41`,
      ),
    ).rejects.toThrow(/events_tag/);
  });

  it('a sealer with a wrong or a missing key seals nothing; the right key goes on', async () => {
    await store.append('artwork-32', 0, [submitted(32)], meta());
    process.env.LOG_HMAC_KEY = 'a wrong key, as long as the right one';
    await expect(runBatch(store, chainSealer, 10_000)).rejects.toThrow(/not the key the chain was sealed with/);
    delete process.env.LOG_HMAC_KEY;
    await expect(runBatch(store, chainSealer, 10_000)).rejects.toThrow(/this process has none/);
    // nor does a writer without the key, or with another, append (its event could never be sealed)
    await expect(new EventStore(db.pool).append('artwork-33', 0, [submitted(33)], meta())).rejects.toThrow(
      /this process has none/,
    );
    process.env.LOG_HMAC_KEY = 'a wrong key, as long as the right one';
    await expect(new EventStore(db.pool).append('artwork-34', 0, [submitted(34)], meta())).rejects.toThrow(
      /not the key/,
    );
    expect(await db.pool.query(`SELECT max(seq)::int AS head FROM event_chain`)).toMatchObject({
      rows: [{ head: 41 }],
    });
    process.env.LOG_HMAC_KEY = KEY;
    await runBatch(store, chainSealer, 10_000);
    expect(await verifyChain(db.pool)).toMatchObject({ ok: true, checked: 42, unsealed: 0 });
  });
});

describe('links sealed before the canonical form', () => {
  it('still verify, and the chain goes on from them with the new scheme', async () => {
    const legacy = await freshDatabase();
    try {
      const s = new EventStore(legacy.pool);
      for (let i = 1; i <= 3; i++) await s.append(`artwork-${i}`, 0, [submitted(i)], meta());
      // seal the first three as the first scheme did: sha256(prev + "\n" + event_canonical_text)
      const { rows } = await legacy.pool.query<{ position: number; text: string; transaction_id: string }>(
        `SELECT position, transaction_id::text, event_canonical_text(e) AS text FROM events e ORDER BY position`,
      );
      let prev = GENESIS_HASH;
      for (const [i, r] of rows.entries()) {
        const hash = legacyHash(prev, r.text);
        await legacy.pool.query(
          `INSERT INTO event_chain (seq, position, prev_hash, hash, scheme) VALUES ($1, $2, $3, $4, 1)`,
          [i + 1, r.position, prev, hash],
        );
        prev = hash;
      }
      const last = rows.at(-1)!;
      await legacy.pool.query(
        `INSERT INTO projection_checkpoints (name, transaction_id, position, seq) VALUES ('chain', $1::xid8, $2, 3)`,
        [last.transaction_id, last.position],
      );
      await s.append('artwork-4', 0, [submitted(4)], meta());
      await runBatch(s, chainSealer, 100);
      const schemes = await legacy.pool.query(`SELECT scheme FROM event_chain ORDER BY seq`);
      expect(schemes.rows.map((r) => r.scheme)).toEqual([1, 1, 1, 2]);
      expect(await verifyChain(legacy.pool)).toMatchObject({ ok: true, checked: 4 });
      const client = await legacy.pool.connect();
      await client.query(`SET session_replication_role = replica`);
      await client.query(`UPDATE events SET data = jsonb_set(data, '{title}', '"forged"') WHERE position = 2`);
      client.release();
      expect(await verifyChain(legacy.pool)).toMatchObject({ ok: false, firstBadSeq: 2, reason: 'event edited' });
    } finally {
      await legacy.drop();
    }
  });
});
