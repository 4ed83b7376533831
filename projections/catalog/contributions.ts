import type pg from 'pg';
import type { Contribution, ContributionStatus, ContributionText } from '#contract/mine.ts';
import { toView, type CatalogRow, type Kind } from './items.ts';

type Queryable = Pick<pg.Pool, 'query'>;

/** The events that make an item's state for its sender, by the verb their type ends with. */
const STATE_TYPES = ['Submitted', 'Approved', 'Rejected', 'Deleted', 'Withdrawn'].flatMap((verb) =>
  ['Artwork', 'Story', 'Media'].map((noun) => `${noun}${verb}`),
);

interface Fold {
  status: ContributionStatus | 'deleted';
  submittedAt: string;
  decidedAt: string | null;
}

/** An item's state as its own stream tells it, in stream order. */
function fold(events: ReadonlyArray<{ type: string; data: Record<string, string> }>): Fold | undefined {
  let state: Fold | undefined;
  for (const { type, data } of events) {
    if (type.endsWith('Submitted')) state = { status: 'pending', submittedAt: data.submittedAt!, decidedAt: null };
    else if (!state) continue;
    else if (type.endsWith('Approved')) state = { ...state, status: 'approved', decidedAt: data.approvedAt! };
    else if (type.endsWith('Rejected')) state = { ...state, status: 'rejected', decidedAt: data.rejectedAt! };
    else if (type.endsWith('Withdrawn')) state = { ...state, status: 'withdrawn', decidedAt: data.withdrawnAt! };
    else if (type.endsWith('Deleted')) state = { ...state, status: 'deleted', decidedAt: data.deletedAt! };
  }
  return state;
}

function textOf(row: CatalogRow): ContributionText {
  if (row.kind === 'story') {
    return { title: row.title, content: row.content ?? '', authorName: row.artist_name, isAnonymous: row.is_anonymous };
  }
  return { title: row.title, description: row.description, tags: row.tags, artistName: row.artist_name };
}

/**
 * What one browser sent (CONTRACT §11), newest first. Which browser sent what is kept outside the
 * log (`contributions`, decision 087); each item's state is read from its own stream in the log, its
 * words from the catalog. An item an admin deleted is gone for its sender too (decision 088).
 */
export async function listContributions(db: Queryable, visitorId: string): Promise<Contribution[]> {
  const { rows: owned } = await db.query<{ stream_id: string; kind: Kind; id: number }>(
    `SELECT stream_id, kind, item_id::int AS id FROM contributions WHERE visitor_id::text = $1::text`,
    [visitorId],
  );
  if (owned.length === 0) return [];
  const { rows: events } = await db.query<{ stream_id: string; type: string; data: Record<string, string> }>(
    `SELECT stream_id, type, data FROM events WHERE stream_id = ANY($1::text[]) AND type = ANY($2::text[])
     ORDER BY stream_id, stream_version`,
    [owned.map((o) => o.stream_id), STATE_TYPES],
  );
  const { rows: catalog } = await db.query<CatalogRow>(
    `SELECT c.*, NULL AS email FROM catalog_items c
     WHERE (c.kind, c.id) IN (SELECT * FROM unnest($1::text[], $2::bigint[]))`,
    [owned.map((o) => o.kind), owned.map((o) => o.id)],
  );
  const rowOf = new Map(catalog.map((r) => [`${r.kind}-${r.id}`, r]));
  const items: Contribution[] = [];
  for (const { stream_id: stream, kind, id } of owned) {
    const state = fold(events.filter((e) => e.stream_id === stream));
    if (!state || state.status === 'deleted') continue;
    const row = state.status === 'withdrawn' ? undefined : rowOf.get(stream);
    // an item the catalog has not reached yet reads as just sent
    const view = row && state.status === 'approved' ? toView(row, { admin: false }) : undefined;
    items.push({
      kind,
      id,
      title: row?.title ?? null,
      status: state.status,
      submittedAt: state.submittedAt,
      decidedAt: state.decidedAt,
      text: row ? textOf(row) : null,
      thumbnailUrl: (view && 'thumbnailUrl' in view ? view.thumbnailUrl : null) ?? null,
    });
  }
  return items.sort((a, b) => b.submittedAt.localeCompare(a.submittedAt) || b.id - a.id);
}

/** One of the browser's items as `listContributions` shows it; undefined when it is not theirs. */
export async function findContribution(
  db: Queryable,
  visitorId: string,
  kind: Kind,
  id: number,
): Promise<Contribution | undefined> {
  return (await listContributions(db, visitorId)).find((c) => c.kind === kind && c.id === id);
}

/** Whether this browser sent the item; the sender alone may edit or withdraw it. */
export async function isSender(db: Queryable, visitorId: string, kind: Kind, id: number): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM contributions WHERE stream_id = $1 AND visitor_id::text = $2::text`, [
    `${kind}-${id}`,
    visitorId,
  ]);
  return rows.length > 0;
}
