import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type pg from 'pg';

const PAGE = 1000;

/** The log as NDJSON, one event a line in position order, with its chain hash; streamed page by page. */
export async function exportNdjson(
  db: Pick<pg.Pool, 'query'>,
  out: Writable,
  range: { from?: number; to?: number } = {},
): Promise<number> {
  let after = (range.from ?? 0) - 1;
  let written = 0;
  for (;;) {
    const { rows } = await db.query<{ line: string; position: number }>(
      `SELECT e.position, json_build_object(
         'position', e.position, 'streamId', e.stream_id, 'version', e.stream_version, 'type', e.type,
         'schemaVersion', e.schema_version, 'data', e.data, 'metadata', e.metadata,
         'recordedAt', e.recorded_at, 'seq', c.seq, 'hash', c.hash)::text AS line
       FROM events e LEFT JOIN event_chain c ON c.position = e.position
       WHERE e.position > $1 AND ($2::bigint IS NULL OR e.position <= $2)
       ORDER BY e.position LIMIT $3`,
      [after, range.to ?? null, PAGE],
    );
    for (const row of rows) {
      if (!out.write(`${row.line}\n`)) await once(out, 'drain');
      written++;
    }
    if (rows.length < PAGE) return written;
    after = rows.at(-1)!.position;
  }
}
