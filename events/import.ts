import fs from 'node:fs';
import readline from 'node:readline';
import type pg from 'pg';
import { inTransaction } from '#db/postgres.ts';
import { logHmacKey } from './canonical.ts';
import { CHAIN_PROJECTION } from './chain.ts';
import type { ChainEvent } from './export.ts';
import { finderRows, type FinderRow } from './finders.ts';
import { kindOfRefKey } from './personal.ts';
import { verifyExportFile } from './verifyFile.ts';

export class ImportRefused extends Error {}

/** Id sequences fed by stream ids: restored past the highest id in the log, so new ids never clash. */
const ID_SEQUENCES: Array<[sequence: string, streamPrefix: string]> = [
  ['artwork_ids', 'artwork'],
  ['story_ids', 'story'],
  ['media_ids', 'media'],
  ['comment_ids', 'comment'],
];

const RUN = 1000;

/** The personal_data kinds of the committed refs that are not words (their values are never exported). */
const NOT_WORDS: Record<string, string> = { emailRef: 'email', clientRef: 'ip', actorRef: 'name' };

async function* events(file: string): AsyncGenerator<ChainEvent> {
  const lines = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line) continue;
    const parsed = JSON.parse(line) as ChainEvent | { end: unknown };
    if (!('end' in parsed)) yield parsed;
  }
}

/**
 * Restores a verified export into an empty database: the events with their positions, times and
 * links, sealed exactly as they were. Each run of events whose positions grow goes in one
 * transaction, a new run in a new one, so the commit order the database records
 * ((transaction_id, position)) grows with seq as the sealer would have made it, and verify holds.
 * Read models are then folded from the log by the caller (a rebuild).
 */
export async function importNdjson(
  pool: pg.Pool,
  file: string,
  key: { hmacKey: string | undefined } = { hmacKey: logHmacKey() },
): Promise<{ imported: number; head: number }> {
  const verified = await verifyExportFile(file, key);
  if (!verified.ok) {
    throw new ImportRefused(`the export does not verify: seq ${verified.firstBadSeq}: ${verified.reason}`);
  }
  if (verified.first !== null && verified.first !== 1) {
    throw new ImportRefused(
      `the export starts at seq ${verified.first}; only a whole log (from seq 1) can be restored`,
    );
  }
  const { rows } = await pool.query<{ any: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM events) OR EXISTS (SELECT 1 FROM event_chain) AS any`,
  );
  if (rows[0]!.any) throw new ImportRefused('the database already holds events; import only into an empty one');

  let run: ChainEvent[] = [];
  let imported = 0;
  // what an erasure finds people by (decision 112): new rows, written once the ids the log refers to are reserved
  const finders: FinderRow[] = [];
  const flush = async () => {
    if (!run.length) return;
    const batch = run;
    run = [];
    await inTransaction(pool, async (db) => {
      await db.query(
        `INSERT INTO events (position, stream_id, stream_version, type, schema_version, data, metadata, recorded_at)
         OVERRIDING SYSTEM VALUE
         SELECT (e->>'position')::bigint, e->>'streamId', (e->>'version')::bigint, e->>'type',
                (e->>'schemaVersion')::int, e->'data', e->'metadata', (e->>'recordedAt')::timestamptz
         FROM jsonb_array_elements($1::jsonb) AS e`,
        [JSON.stringify(batch)],
      );
      await db.query(
        `INSERT INTO event_chain (seq, position, prev_hash, hash, scheme)
         SELECT (e->>'seq')::bigint, (e->>'position')::bigint, e->>'prevHash', e->>'hash', (e->>'scheme')::smallint
         FROM jsonb_array_elements($1::jsonb) AS e`,
        [
          JSON.stringify(
            batch.map(({ seq, position, prevHash, hash, scheme }) => ({ seq, position, prevHash, hash, scheme })),
          ),
        ],
      );
      // names and words travel beside the events (decision 050); an erased one comes back erased.
      // Under schemes 4 and 5 every referenced value comes back with its salt and commitment, those
      // the export does not give (emails, addresses) as erased, so the links still verify (decision 077).
      const personal = batch.flatMap((e) => {
        const keys = new Set([...Object.keys(e.personal ?? {}), ...Object.keys(e.commitments ?? {})]);
        return [...keys].flatMap((key) => {
          const data = e.data as Record<string, unknown>;
          const id = data[key] ?? (e.metadata as Record<string, unknown>)[key];
          const kind = kindOfRefKey(key) ?? NOT_WORDS[key];
          const value = e.personal?.[key] ?? (key === 'actorRef' && e.commitments ? (e.actor?.name ?? null) : null);
          const stream = key in data ? e.streamId : null;
          const salt = e.salts?.[key] ?? null;
          const commitment = e.commitments?.[key] ?? null;
          return typeof id === 'number' && kind ? [{ id, kind, value, salt, commitment, stream }] : [];
        });
      });
      if (personal.length) {
        await db.query(
          `INSERT INTO personal_data (id, kind, value, salt, commitment, stream_id, erased_at) OVERRIDING SYSTEM VALUE
           SELECT (p->>'id')::bigint, p->>'kind', p->>'value', p->>'salt', p->>'commitment', p->>'stream',
             CASE WHEN p->>'value' IS NULL THEN now() END
           FROM jsonb_array_elements($1::jsonb) AS p
           ON CONFLICT (id) DO NOTHING`,
          [JSON.stringify(personal)],
        );
      }
      const last = batch.at(-1)!;
      await db.query(
        `INSERT INTO projection_checkpoints (name, era, transaction_id, position, seq)
         VALUES ($1, (SELECT era FROM events WHERE position = $2), pg_current_xact_id(), $2, $3)
         ON CONFLICT (name) DO UPDATE SET era = excluded.era, transaction_id = excluded.transaction_id,
           position = excluded.position,
           seq = excluded.seq, updated_at = now()`,
        [CHAIN_PROJECTION, last.position, last.seq],
      );
    });
    imported += batch.length;
  };
  for await (const e of events(file)) {
    const previous = run.at(-1);
    if (previous && (e.position < previous.position || run.length >= RUN)) await flush();
    run.push(e);
    finders.push(...finderRows(e.streamId, e.finders));
  }
  await flush();

  await pool.query(
    `SELECT setval(pg_get_serial_sequence('events', 'position'), (SELECT max(position) FROM events))
     WHERE EXISTS (SELECT 1 FROM events)`,
  );
  for (const [sequence, prefix] of ID_SEQUENCES) {
    await pool.query(
      `SELECT setval('${sequence}', m) FROM (
         SELECT max(substring(stream_id FROM '^${prefix}-(\\d+)$')::bigint) AS m FROM events
       ) x WHERE m IS NOT NULL`,
    );
  }
  // personal data is not in the log: keep new rows' ids clear of every reference the log holds
  await pool.query(
    `SELECT setval(pg_get_serial_sequence('personal_data', 'id'), m) FROM (
       SELECT max(v::bigint) AS m FROM events, LATERAL (
         SELECT value AS v FROM jsonb_each_text(data) WHERE key LIKE '%Ref' AND value ~ '^\\d{1,18}$'
         UNION ALL
         SELECT value FROM jsonb_each_text(metadata) WHERE key LIKE '%Ref' AND value ~ '^\\d{1,18}$'
       ) refs
     ) x WHERE m IS NOT NULL`,
  );
  for (let i = 0; i < finders.length; i += RUN) {
    await pool.query(
      `INSERT INTO personal_data (kind, value, stream_id)
       SELECT p->>'kind', p->>'value', p->>'stream' FROM jsonb_array_elements($1::jsonb) AS p`,
      [JSON.stringify(finders.slice(i, i + RUN))],
    );
  }
  return { imported, head: verified.head?.seq ?? 0 };
}
