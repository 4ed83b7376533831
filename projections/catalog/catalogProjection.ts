import type pg from 'pg';
import type { ArtworkEvent } from '#events/artworks/artwork.ts';
import type { RecordedEvent } from '#events/store.ts';
import type { Projection } from '../projection.ts';

type ArtworkRecorded = RecordedEvent<ArtworkEvent>;
type Row = Record<string, unknown> & { id: number; at: number };

const searchText = (...parts: Array<string | null | undefined>) =>
  parts
    .filter((p): p is string => !!p)
    .join('\n')
    .toLowerCase();

/**
 * Each event type as one set-based statement over a run of such events: a batch of hundreds costs a
 * few round trips, which keeps the catalog close behind the log under load. Updates keep only the
 * last event per item in a run, so a run applies exactly as the events would one by one.
 */
const statements: { [T in ArtworkEvent['type']]: { sql: string; row: (e: Extract<ArtworkRecorded, { type: T }>) => Row } } = {
  ArtworkSubmitted: {
    sql: `INSERT INTO catalog_items (kind, id, status, title, description, tags, artist_name, email_ref,
            is_from_canvas, image, created_at, search_text, last_position)
          SELECT 'artwork', r.id, 'pending', r.title, r.description, r.tags, r.artist_name, r.email_ref,
            r.is_from_canvas, r.image, r.created_at, r.search_text, r.at
          FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, title text, description text, tags text, artist_name text,
            email_ref bigint, is_from_canvas text, image jsonb, created_at timestamptz, search_text text, at bigint)`,
    row: ({ data: d, position }) => ({
      id: d.artworkId,
      title: d.title,
      description: d.description,
      tags: d.tags,
      artist_name: d.artistName,
      email_ref: d.emailRef,
      is_from_canvas: String(d.isFromCanvas),
      image: { original: d.image },
      created_at: d.submittedAt,
      search_text: searchText(d.title, d.description, d.tags, d.artistName),
      at: position,
    }),
  },
  ArtworkRenditionsMade: {
    sql: `UPDATE catalog_items c SET image = c.image || r.image, last_position = r.at
          FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, image jsonb, at bigint)
          WHERE c.kind = 'artwork' AND c.id = r.id`,
    row: ({ data: d, position }) => ({ id: d.artworkId, image: { display: d.display, thumbnail: d.thumbnail }, at: position }),
  },
  ArtworkApproved: {
    sql: `UPDATE catalog_items c SET status = 'approved', admin_notes = r.notes, approved_at = r.approved_at, last_position = r.at
          FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, notes text, approved_at timestamptz, at bigint)
          WHERE c.kind = 'artwork' AND c.id = r.id`,
    row: ({ data: d, position }) => ({ id: d.artworkId, notes: d.adminNotes, approved_at: d.approvedAt, at: position }),
  },
  ArtworkRejected: {
    sql: `UPDATE catalog_items c SET status = 'rejected', admin_notes = r.notes, approved_at = NULL, last_position = r.at
          FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, notes text, at bigint)
          WHERE c.kind = 'artwork' AND c.id = r.id`,
    row: ({ data: d, position }) => ({ id: d.artworkId, notes: d.adminNotes, at: position }),
  },
  ArtworkArchived: {
    sql: `UPDATE catalog_items c SET archived = true, archived_at = r.archived_at, last_position = r.at
          FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, archived_at timestamptz, at bigint)
          WHERE c.kind = 'artwork' AND c.id = r.id`,
    row: ({ data: d, position }) => ({ id: d.artworkId, archived_at: d.archivedAt, at: position }),
  },
  ArtworkUnarchived: {
    sql: `UPDATE catalog_items c SET archived = false, archived_at = NULL, last_position = r.at
          FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, at bigint)
          WHERE c.kind = 'artwork' AND c.id = r.id`,
    row: ({ data: d, position }) => ({ id: d.artworkId, at: position }),
  },
};

/** Splits a batch into runs of one event type, in order. */
function runsOf(events: readonly ArtworkRecorded[]): ArtworkRecorded[][] {
  const runs: ArtworkRecorded[][] = [];
  for (const e of events) {
    const last = runs.at(-1);
    if (last && last[0]!.type === e.type) last.push(e);
    else runs.push([e]);
  }
  return runs;
}

async function applyRun(run: ArtworkRecorded[], db: pg.PoolClient) {
  const { sql, row } = statements[run[0]!.type] as { sql: string; row: (e: ArtworkRecorded) => Row };
  const rows = run.map(row);
  const lastPerItem = run[0]!.type === 'ArtworkSubmitted' ? rows : [...new Map(rows.map((r) => [r.id, r])).values()];
  await db.query(sql, [JSON.stringify(lastPerItem)]);
}

/** Every submitted item with its moderation state and counters: gallery, details and admin lists read it. */
export const catalogProjection: Projection = {
  name: 'catalog',
  canHandle: Object.keys(statements) as Array<keyof typeof statements>,
  tables: ['catalog_items'],
  rebuildable: true,
  async apply(events, db) {
    for (const run of runsOf(events as readonly ArtworkRecorded[])) await applyRun(run, db);
  },
};
