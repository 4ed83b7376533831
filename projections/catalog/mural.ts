import type pg from 'pg';
import type { LivePayloads } from '#contract/live.ts';
import { MURAL_HEIGHT, MURAL_WIDTH, type MuralSnapshot, type MuralState, type MuralStroke } from '#contract/mural.ts';

type Db = Pick<pg.Pool, 'query'>;

interface StrokeRow {
  id: string;
  author_id: string;
  tool: 'brush' | 'eraser';
  color: string;
  size: number;
  opacity: number;
  points: Array<[number, number]>;
  seq: string;
}

const SELECT_STROKE = `SELECT id, author_id, tool, color, size, opacity, points, seq FROM catalog_mural_strokes`;

const toStroke = (r: StrokeRow): MuralStroke => ({
  id: Number(r.id),
  authorId: r.author_id,
  tool: r.tool,
  color: r.color,
  size: r.size,
  opacity: r.opacity,
  points: r.points,
  position: Number(r.seq),
});

export async function readMuralState(db: Db): Promise<{ state: MuralState; artworkId: number | null }> {
  const { rows } = await db.query<{ state: MuralState; artwork_id: string | null }>(
    `SELECT state, artwork_id FROM catalog_mural WHERE id = 1`,
  );
  const row = rows[0];
  return { state: row?.state ?? 'open', artworkId: row?.artwork_id == null ? null : Number(row.artwork_id) };
}

/** The mural's state and the catalog position it stands at, in one statement (one snapshot), without its strokes. */
export async function readMuralStateAt(
  db: Db,
): Promise<{ state: MuralState; position: number; artworkId: number | null }> {
  const { rows } = await db.query<{ position: string; state: MuralState | null; artwork_id: string | null }>(
    `SELECT catalog_position() AS position, m.state, m.artwork_id FROM (SELECT 1) one LEFT JOIN catalog_mural m ON m.id = 1`,
  );
  const row = rows[0]!;
  return {
    state: row.state ?? 'open',
    position: Number(row.position),
    artworkId: row.artwork_id == null ? null : Number(row.artwork_id),
  };
}

/**
 * The whole mural as the catalog holds it, and the catalog position it stands at, read in one
 * snapshot (one REPEATABLE READ transaction): live messages after that position are exactly what is
 * new to its reader, nothing twice. `visitorId` is the reader's, answered as their public author id.
 */
export async function readMural(pool: pg.Pool, visitorId: string | null): Promise<MuralSnapshot> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows: at } = await client.query<{ position: string; author_id: string | null }>(
      `SELECT catalog_position() AS position, public_author_id($1) AS author_id`,
      [visitorId],
    );
    const { state, artworkId } = await readMuralState(client);
    const strokes = await readMuralStrokes(client);
    await client.query('COMMIT');
    return {
      state,
      width: MURAL_WIDTH,
      height: MURAL_HEIGHT,
      strokes,
      position: Number(at[0]!.position),
      authorId: at[0]!.author_id,
      artworkId,
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Every stroke on the mural, in the order they were drawn (their painting order). */
export async function readMuralStrokes(db: Db): Promise<MuralStroke[]> {
  const { rows } = await db.query<StrokeRow>(`${SELECT_STROKE} ORDER BY seq, id`);
  return rows.map(toStroke);
}

export async function findMuralStroke(db: Db, id: number): Promise<MuralStroke | undefined> {
  const { rows } = await db.query<StrokeRow>(`${SELECT_STROKE} WHERE id = $1`, [id]);
  return rows[0] && toStroke(rows[0]);
}

/** What a mural event means for open screens (projections/live/messages.ts). */
export type MuralChange = { what: 'mural-stroke-added' | 'mural-stroke-removed'; id: number } | { what: 'mural-state' };

export const isMuralChange = <C extends { what: string }>(c: C): c is C & MuralChange & { what: `mural-${string}` } =>
  c.what.startsWith('mural-');

type Unplaced<E extends 'mural:stroke-added' | 'mural:stroke-removed' | 'mural:state'> = {
  event: E;
  payload: Omit<LivePayloads[E], 'after'>;
};
export type MuralMessage = Unplaced<'mural:stroke-added'> | Unplaced<'mural:stroke-removed'> | Unplaced<'mural:state'>;

/**
 * The live messages of a batch's mural changes, keyed by change. Coalesced: a batch's state changes
 * are one `mural:state` (the last), a stroke drawn and undone in one batch is sent not at all, and
 * the batch's new strokes are read in one query. A stroke is sent once it is finished (one event).
 */
export async function muralMessages(
  db: Db,
  changes: ReadonlyArray<MuralChange & { position: number }>,
): Promise<Map<object, MuralMessage[]>> {
  const out = new Map<object, MuralMessage[]>();
  if (changes.length === 0) return out;
  const addedIds = changes.flatMap((c) => (c.what === 'mural-stroke-added' ? [c.id] : []));
  const strokes = new Map<number, MuralStroke>();
  if (addedIds.length > 0) {
    const { rows } = await db.query<StrokeRow>(`${SELECT_STROKE} WHERE id = ANY($1::bigint[])`, [addedIds]);
    for (const r of rows) strokes.set(Number(r.id), toStroke(r));
  }
  const added = new Set(addedIds);
  const lastState = changes.findLast((c) => c.what === 'mural-state');
  const state = lastState ? await readMuralState(db) : undefined;
  for (const c of changes) {
    const { position } = c;
    if (c.what === 'mural-state') {
      if (c === lastState) out.set(c, [{ event: 'mural:state', payload: { position, ...state! } }]);
    } else if (c.what === 'mural-stroke-added') {
      // gone already: undone in this same batch
      const stroke = strokes.get(c.id);
      if (stroke) out.set(c, [{ event: 'mural:stroke-added', payload: { position, stroke } }]);
    } else if (!(added.has(c.id) && !strokes.has(c.id))) {
      out.set(c, [{ event: 'mural:stroke-removed', payload: { position, id: c.id } }]);
    }
  }
  return out;
}
