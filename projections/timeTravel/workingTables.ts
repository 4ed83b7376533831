import pg from 'pg';
import { decodeRow, type EventRow, type RecordedEvent } from '#events/store.ts';
import { catalogProjection } from '../catalog/catalogProjection.ts';
import { scopeOf } from '../catalog/runs.ts';

const READ_BATCH = 5000;

export const projection = catalogProjection;

/** A connection of its own, which never keeps the process alive; `onError` when it drops. */
export async function openClient(connectionString: string, onError: () => void): Promise<pg.Client> {
  const client = new pg.Client({ connectionString });
  client.on('error', onError);
  await client.connect();
  (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
  return client;
}

/**
 * The catalog's tables shadowed on this connection by temporary tables of the same names (PostgreSQL
 * looks in pg_temp first), so the catalog's own statements fold into them and the gallery's own
 * queries read from them (decision 033).
 */
export async function createWorkingTables(client: pg.Client) {
  for (const t of projection.tables) {
    await client.query(`CREATE TEMP TABLE ${t} (LIKE public.${t} INCLUDING ALL)`);
  }
}

/** The newest checkpoint kept in the database at or below `atMost` (0: none, start from empty tables). */
export async function checkpointAtMost(db: Pick<pg.Client, 'query'>, atMost: number): Promise<number> {
  const { rows } = await db.query<{ seq: string | null }>(
    `SELECT max(seq)::text AS seq FROM time_travel_checkpoints WHERE seq <= $1`,
    [atMost],
  );
  return Number(rows[0]?.seq ?? 0);
}

/**
 * The big tables, whose rows are each about one thing (`SCOPE_SQL`): a question loads from them only
 * the rows of what the events it folds are about, and the rest only when its reader reads them.
 * The others (items, the show, the mural's state) are loaded whole.
 */
export const SCOPED_TABLES = ['catalog_likes', 'catalog_comments', 'catalog_mural_strokes'];

/**
 * What a kept row is about, computed by the keeper from the table's name (`tbl`) and the row (`row`):
 * an item's comments by the item's scope in runs.ts (`artwork-12`), a like by the item's scope and
 * the visitor (`artwork-12/v5`), a stroke by its id.
 */
export const SCOPE_SQL = `CASE tbl
  WHEN 'catalog_items' THEN (row->>'kind') || '-' || (row->>'id')
  WHEN 'catalog_comments' THEN (row->>'kind') || '-' || (row->>'item_id')
  WHEN 'catalog_likes' THEN (row->>'kind') || '-' || (row->>'item_id') || '/' || (row->>'visitor_key')
  WHEN 'catalog_mural_strokes' THEN 'stroke-' || (row->>'id')
  ELSE tbl END`;

/** `artwork-12/*`: every like of an item. */
export const EVERY_LIKE = '/*';

/**
 * The rows of the scoped tables an event's statement reads or writes (engagement.ts, mural.ts,
 * statement.ts): a like or an unlike its one like, a comment its item's comments, a view or a
 * reaction count none (they change the item's row only), a stroke its row, any other event about an
 * item that item's comments and likes (a deletion takes them); none for the show and the mural's
 * state; 'all' for an event with no scope (an erasure takes many items; runs.ts treats it as a
 * barrier too).
 */
export function scopesOf(event: RecordedEvent): string[] | 'all' {
  switch (event.type) {
    case 'MuralStrokeDrawn':
    case 'MuralStrokeErased':
      return [`stroke-${event.data.strokeId}`];
    case 'ItemLiked':
    case 'ItemUnliked':
      return [`${event.data.kind}-${event.data.itemId}/${event.data.visitorKey}`];
    case 'ItemViewed':
    case 'ReactionsCounted':
      return [];
    case 'CommentPosted':
    case 'CommentRemoved':
      return [`${event.data.kind}-${event.data.itemId}`];
  }
  const scope = scopeOf(event);
  if (scope === undefined) return 'all';
  return scope === 'show' || scope === 'mural' ? [] : [scope, `${scope}${EVERY_LIKE}`];
}

/**
 * A table's rows at a checkpoint: every row; or those of some scopes (`exact`, and every like of the
 * items in `items`) less the rows of the scopes in `skip` (loaded before, and maybe changed since);
 * or every row but those of `skip` and of the items in `skipItems`.
 */
export type Part =
  | { all: true }
  | { exact: string[]; items: string[]; skip: string[] }
  | { rest: true; skip: string[]; skipItems: string[] };

/**
 * Puts a table's rows at checkpoint `seq` (0: none) into its working table, from the rows kept in the
 * database (decision 100). With `truncate`, the working table is emptied first. The caller checks in
 * the same REPEATABLE READ transaction that no erasure has taken the rows away (decision 075).
 */
export async function loadRows(client: pg.Client, table: string, seq: number, part: Part, truncate: boolean) {
  if (truncate) await client.query(`TRUNCATE pg_temp.${table}`);
  if (seq === 0) return;
  const insert = (filter: string, params: unknown[]) =>
    client.query(
      `INSERT INTO pg_temp.${table}
       SELECT r.* FROM time_travel_rows v, jsonb_populate_record(NULL::pg_temp.${table}, v.row) r
       WHERE v.tbl = $1 AND ${filter}`,
      [table, seq, ...params],
    );
  const at = `v.from_seq <= $2 AND (v.to_seq IS NULL OR v.to_seq > $2)`;
  if ('all' in part) await insert(`int8range(v.from_seq, v.to_seq) @> $2::bigint`, []);
  else if ('rest' in part) {
    await insert(`int8range(v.from_seq, v.to_seq) @> $2::bigint AND v.scope <> ALL($3) AND NOT v.scope LIKE ANY($4)`, [
      part.skip,
      part.skipItems.map((i) => `${i}/%`),
    ]);
  } else {
    if (part.exact.length) await insert(`v.scope = ANY($3) AND ${at}`, [part.exact]);
    // one at a time: a prefix LIKE on the C-collated scope is an index range, LIKE ANY is not
    for (const item of part.items)
      await insert(`v.scope LIKE $3 AND v.scope <> ALL($4) AND ${at}`, [`${item}/%`, part.skip]);
  }
}

/** Every working table at checkpoint `seq`, whole (the keeper's start). */
export async function loadCheckpoint(client: pg.Client, seq: number) {
  for (const t of projection.tables) {
    await loadRows(client, t, seq, { all: true }, true);
    // temporary tables are never analysed by autovacuum: keep the planner informed
    await client.query(`ANALYZE pg_temp.${t}`);
  }
}

/**
 * Folds sealed events in (from, to] into the tables under the catalog's names. Pages are read on
 * `reader`, each while the one before it folds, by seq range rather than LIMIT: seqs are dense, and a
 * range keeps each page one index range scan even before event_chain has statistics (decision 027).
 * `beforeApply` sees each page's events before they are folded. Returns the number of events read.
 */
export async function foldSealed(
  client: pg.Client,
  reader: pg.Client,
  from: number,
  to: number,
  beforeApply?: (events: RecordedEvent[]) => Promise<void>,
): Promise<number> {
  const page = (after: number) => {
    const upto = Math.min(to, after + READ_BATCH);
    const rows = reader
      .query<EventRow>(
        `SELECT e.position, e.era, e.transaction_id::text AS transaction_id, e.stream_id, e.stream_version, e.type,
           e.schema_version, e.data, e.metadata, e.recorded_at, c.seq
         FROM event_chain c JOIN events e ON e.position = c.position
         WHERE c.seq > $1 AND c.seq <= $2 ORDER BY c.seq`,
        [after, upto],
      )
      .then((r) => r.rows);
    // a page read ahead and never awaited (the fold before it failed) is no unhandled rejection
    rows.catch(() => {});
    return rows;
  };
  let seq = from;
  let read = 0;
  let next = seq < to ? page(seq) : undefined;
  while (next) {
    const rows = await next;
    if (rows.length === 0) throw new Error(`the log has no event at seq ${seq + 1}`);
    const last = Number(rows.at(-1)!.seq);
    next = last < to ? page(last) : undefined;
    const decoded: RecordedEvent[] = [];
    for (const row of rows) {
      try {
        decoded.push(decodeRow(row));
      } catch {
        // an event the catalog cannot read is skipped here as the runner quarantines it
      }
    }
    const relevant = decoded.filter((e) => projection.canHandle.includes(e.type));
    if (relevant.length) await beforeApply?.(relevant);
    if (relevant.length) await projection.apply(relevant, client as unknown as pg.PoolClient);
    read += rows.length;
    seq = last;
  }
  return read;
}
