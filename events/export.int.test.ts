import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainSealer } from '#projections/chain/chainSealer.ts';
import { runBatch } from '#projections/runner.ts';
import { freshDatabase } from '../tests/support/database.ts';
import { approved, meta, submitted } from '../tests/support/fixtures.ts';
import { legacyHash } from './canonical.ts';
import { GENESIS_HASH } from './chain.ts';
import { exportNdjson } from './export.ts';
import { verifyExportFile } from './verifyFile.ts';
import { EventStore } from './store.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

let db: Awaited<ReturnType<typeof freshDatabase>>;
let dir: string;
let lines: string[];
beforeAll(async () => {
  db = await freshDatabase();
  const store = new EventStore(db.pool);
  for (let i = 1; i <= 6; i++) {
    await store.append(
      `artwork-${i}`,
      0,
      [submitted(i, { title: `Tïtle ${i}\nwith "quotes" and ✨`, tags: i % 2 ? 'a,b' : null }), approved(i)],
      meta(i % 2 ? 'guest' : 'admin'),
    );
  }
  await runBatch(store, chainSealer, 10_000);
  let text = '';
  await exportNdjson(
    db.pool,
    new Writable({
      write(chunk, _enc, done) {
        text += chunk;
        done();
      },
    }),
  );
  lines = text.trimEnd().split('\n');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'export-'));
});
afterAll(async () => {
  await db.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** `events verify --file`, with a DATABASE_URL nobody listens on: no database is used. */
function verifyFile(content: string[]) {
  const file = path.join(dir, `x-${Math.random()}.ndjson`);
  fs.writeFileSync(file, content.map((l) => `${l}\n`).join(''));
  const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts/events.ts'), 'verify', '--file', file], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none', DATA_DIR: dir },
    encoding: 'utf8',
  });
  return { code: run.status, out: run.stdout + run.stderr };
}

describe('the export', () => {
  it('is in chain order, with every field, times in UTC and each link, then the end line', () => {
    expect(lines).toHaveLength(13);
    const events = lines.slice(0, -1).map((l) => JSON.parse(l));
    expect(JSON.parse(lines.at(-1)!)).toEqual({ end: { events: 12, head: { seq: 12, hash: events[11].hash } } });
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(Object.keys(events[0])).toEqual([
      'seq',
      'position',
      'streamId',
      'version',
      'type',
      'schemaVersion',
      'data',
      'metadata',
      'recordedAt',
      'actor',
      'commitments',
      'prevHash',
      'hash',
      'scheme',
    ]);
    expect(events[0].prevHash).toBe('0'.repeat(64));
    expect(events[1].prevHash).toBe(events[0].hash);
    expect(events[0].recordedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(events[2].actor).toEqual({ role: 'admin', name: null });
  });
});

describe('events verify --file', () => {
  it('passes on the export as it was written', () => {
    const run = verifyFile(lines);
    expect(run.out).toContain('ok: 12 events checked');
    expect(run.code).toBe(0);
  });

  it('fails at the first bad seq on one edited byte', () => {
    const edited = [...lines];
    edited[6] = edited[6]!.replace('Tïtle 4', 'Tïtle 5');
    const run = verifyFile(edited);
    expect(run.code).toBe(1);
    expect(run.out).toContain('FAILED at seq 7');
    // a byte that JSON does not care about still counts
    const spaced = [...lines];
    spaced[8] = spaced[8]!.replace('"seq":9,', '"seq": 9,');
    expect(verifyFile(spaced).out).toContain('FAILED at seq 9');
  });

  it('fails on a removed line', () => {
    const run = verifyFile(lines.filter((_, i) => i !== 4));
    expect(run.code).toBe(1);
    expect(run.out).toContain('FAILED at seq 5');
  });

  it('fails on two swapped lines', () => {
    const swapped = [...lines];
    [swapped[9], swapped[10]] = [swapped[10]!, swapped[9]!];
    const run = verifyFile(swapped);
    expect(run.code).toBe(1);
    expect(run.out).toContain('FAILED at seq 10');
  });

  it('fails on an export cut at a line boundary, or with lines after its end', async () => {
    const run = verifyFile(lines.slice(0, 7));
    expect(run.code).toBe(1);
    expect(run.out).toContain('FAILED at seq 8 (line 7): the export has no end line');
    const verify = async (content: string[]) => {
      const file = path.join(dir, `cut-${Math.random()}.ndjson`);
      fs.writeFileSync(file, content.map((l) => `${l}\n`).join(''));
      return verifyExportFile(file);
    };
    for (const keep of [0, 1, 12]) {
      expect(await verify(lines.slice(0, keep))).toMatchObject({
        ok: false,
        firstBadSeq: keep + 1,
        reason: expect.stringContaining('the export has no end line'),
      });
    }
    // a cut file given a made-up end line: the count and head must be the file's own
    expect(await verify([...lines.slice(0, 7), lines.at(-1)!])).toMatchObject({
      ok: false,
      reason: expect.stringContaining('the end line does not match'),
    });
    expect(await verify([...lines, lines[0]!])).toMatchObject({ ok: false, reason: 'a line after the end line' });
  });

  it('fails on an inserted line, even one with a valid-looking hash of its own', () => {
    const copy = JSON.parse(lines[2]!);
    const run = verifyFile([...lines.slice(0, 3), JSON.stringify(copy), ...lines.slice(3)]);
    expect(run.code).toBe(1);
    expect(run.out).toContain('FAILED at seq 4');
  });
});

describe('an export of a chain begun under the first scheme', () => {
  it('verifies with no database, and an edit of an old event still shows', async () => {
    const legacy = await freshDatabase();
    try {
      const s = new EventStore(legacy.pool);
      for (let i = 1; i <= 3; i++) await s.append(`artwork-${i}`, 0, [submitted(i, { title: `Old ${i}` })], meta());
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
      await legacy.pool.query(
        `INSERT INTO projection_checkpoints (name, transaction_id, position, seq) VALUES ('chain', $1::xid8, $2, 3)`,
        [rows.at(-1)!.transaction_id, rows.at(-1)!.position],
      );
      await s.append('artwork-4', 0, [submitted(4)], meta());
      await runBatch(s, chainSealer, 100);
      let text = '';
      await exportNdjson(
        legacy.pool,
        new Writable({
          write(chunk, _enc, done) {
            text += chunk;
            done();
          },
        }),
      );
      const exported = text.trimEnd().split('\n');
      expect(exported.slice(0, -1).map((l) => JSON.parse(l).scheme)).toEqual([1, 1, 1, 2]);
      expect(verifyFile(exported).code).toBe(0);
      const edited = [...exported];
      edited[1] = edited[1]!.replace('"title":"Old 2"', '"title":"New 2"');
      const run = verifyFile(edited);
      expect(run.code).toBe(1);
      expect(run.out).toContain('FAILED at seq 2');
    } finally {
      await legacy.drop();
    }
  });
});

describe('the canonical form, as docs/canonical-form.md states it', () => {
  it('lets a few lines of code outside the app recompute a hash', () => {
    // Nothing from the app below: RFC 8785 for plain JSON values, then SHA-256.
    const jcs = (v: unknown): string =>
      v === null || typeof v !== 'object'
        ? JSON.stringify(v)
        : Array.isArray(v)
          ? `[${v.map(jcs).join(',')}]`
          : `{${Object.keys(v)
              .sort()
              .map((k) => `${JSON.stringify(k)}:${jcs((v as Record<string, unknown>)[k])}`)
              .join(',')}}`;
    for (const line of [lines[0]!, lines[7]!]) {
      const { seq, position, streamId, version, type, schemaVersion, data, metadata, recordedAt, prevHash, hash } =
        JSON.parse(line);
      const { commitments } = JSON.parse(line);
      expect(commitments).toBeTypeOf('object');
      const text = jcs({
        seq,
        position,
        streamId,
        version,
        type,
        schemaVersion,
        data,
        metadata,
        recordedAt,
        prevHash,
        commitments,
      });
      expect(createHash('sha256').update(text, 'utf8').digest('hex')).toBe(hash);
    }
  });
});
