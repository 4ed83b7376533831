import type pg from 'pg';
import { z } from 'zod';
import {
  MURAL_BUDGET,
  MURAL_FULL,
  MURAL_HEIGHT,
  MURAL_MAX_POINTS,
  MURAL_TOOLS,
  MURAL_WIDTH,
  type MuralStroke,
} from '#contract/mural.ts';
import { STROKE_COLOR, STROKE_OPACITY, STROKE_SIZE } from '#contract/strokes.ts';
import { handleCommand } from '#events/handle.ts';
import type { EventMetadata } from '#events/metadata.ts';
import { muralStrokeStream, requireOpen, strokeDecider } from '#events/mural/mural.ts';
import type { Deps } from '../deps.ts';
import { HttpError } from '../http/errors.ts';
import { addMuralPointsPerAddress, PER_ADDRESS } from '../limits/limits.ts';
import { MURAL_LOCK, muralState } from './muralLock.ts';

const number = (what: string) => z.number({ error: `${what} must be a number` });
const coordinate = (what: 'x' | 'y', max: number) =>
  number(`Point ${what}`).min(0, 'Points must be inside the canvas').max(max, 'Points must be inside the canvas');

const SIZE = `Size must be from ${STROKE_SIZE.min} to ${STROKE_SIZE.max}`;
const OPACITY = `Opacity must be from ${STROKE_OPACITY.min} to ${STROKE_OPACITY.max}`;

/** CONTRACT §8: what a stroke may be; colour, size and opacity as in the one stroke format (contract/strokes.ts). */
export const MuralStrokeInput = z.object({
  tool: z.enum(MURAL_TOOLS, { error: 'Tool must be brush or eraser' }),
  color: z
    .string({ error: 'Colour must be a hex colour like #1c1917' })
    .regex(STROKE_COLOR, 'Colour must be a hex colour like #1c1917'),
  size: number('Size').min(STROKE_SIZE.min, SIZE).max(STROKE_SIZE.max, SIZE),
  opacity: number('Opacity').min(STROKE_OPACITY.min, OPACITY).max(STROKE_OPACITY.max, OPACITY),
  points: z
    .array(
      z.tuple([coordinate('x', MURAL_WIDTH), coordinate('y', MURAL_HEIGHT)], { error: 'Points must be [x, y] pairs' }),
      {
        error: 'Points must be a list of [x, y] pairs',
      },
    )
    .min(1, 'A stroke needs at least one point')
    .max(MURAL_MAX_POINTS, `A stroke has at most ${MURAL_MAX_POINTS} points`),
});

const WINDOW_SECONDS = MURAL_BUDGET.visitorWindowMs / 1000;

/**
 * One visitor's points in the last 10 s, across processes: their spends are rows, read and written
 * under a lock of that visitor's own in the stroke's transaction, so two strokes at once from one
 * visitor cannot both fit in the same room. 429 with Retry-After (when enough of the window has
 * passed for this stroke) when it does not fit.
 */
async function spendVisitorPoints(tx: pg.PoolClient, visitorId: string, points: number) {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('mural-points:' || $1, 0))`, [visitorId]);
  await tx.query(
    `DELETE FROM mural_point_spends WHERE visitor_id = $1 AND spent_at <= now() - make_interval(secs => $2)`,
    [visitorId, WINDOW_SECONDS],
  );
  const { rows } = await tx.query<{ points: number; frees_in: number }>(
    `SELECT points, extract(epoch FROM spent_at + make_interval(secs => $2) - now())::float8 AS frees_in
     FROM mural_point_spends WHERE visitor_id = $1 ORDER BY spent_at`,
    [visitorId, WINDOW_SECONDS],
  );
  let spent = rows.reduce((sum, r) => sum + r.points, 0);
  if (spent + points > MURAL_BUDGET.visitorPoints) {
    let wait = WINDOW_SECONDS;
    for (const r of rows) {
      spent -= r.points;
      if (spent + points <= MURAL_BUDGET.visitorPoints) {
        wait = r.frees_in;
        break;
      }
    }
    throw new HttpError(
      429,
      `Too many points at once: at most ${MURAL_BUDGET.visitorPoints} in ${WINDOW_SECONDS} seconds. Please wait a moment.`,
      { success: false },
      { 'Retry-After': String(Math.max(1, Math.ceil(wait))) },
    );
  }
  await tx.query(`INSERT INTO mural_point_spends (visitor_id, spent_at, points) VALUES ($1, now(), $2)`, [
    visitorId,
    points,
  ]);
}

/**
 * The room behind one address draws at most PER_ADDRESS.muralPoints in any 10 s (CONTRACT §9: a
 * visitor minted by each login does not multiply the visitor's budget). Past it, 429 with Retry-After,
 * and the transaction's rollback takes the points back.
 */
async function spendAddressPoints(tx: pg.PoolClient, addressGroup: string, points: number) {
  const { totalHits, resetTime } = await addMuralPointsPerAddress(tx, addressGroup, points);
  if (totalHits <= PER_ADDRESS.muralPoints.limit) return;
  // how long the points' window has left: elapsed time, not domain time (decision 147)
  const wait = Math.min(WINDOW_SECONDS, Math.ceil(((resetTime?.getTime() ?? 0) - Date.now()) / 1000));
  throw new HttpError(
    429,
    'Too many points at once from your network. Please wait a moment.',
    { success: false },
    { 'Retry-After': String(Math.max(1, wait)) },
  );
}

/** Adds a stroke's points to the mural's, or answers 409 `The mural is full`. */
async function addToMural(tx: pg.PoolClient, points: number) {
  const { rowCount } = await tx.query(`UPDATE mural_budget SET points = points + $1 WHERE points + $1 <= $2`, [
    points,
    MURAL_BUDGET.muralPoints,
  ]);
  if (!rowCount) throw new HttpError(409, MURAL_FULL);
}

let draws = 0;

/**
 * Draws one stroke (CONTRACT §8, §9): the mural must be open, the stroke must fit the mural's budget,
 * the visitor's and its address group's; it is appended to a stream of its own, and answered with
 * its author's public id.
 */
export async function drawStroke(
  deps: Pick<Deps, 'pool' | 'store'>,
  { visitorId, addressGroup }: { visitorId: string; addressGroup: string },
  input: z.output<typeof MuralStrokeInput>,
  metadata: EventMetadata,
): Promise<Omit<MuralStroke, 'position'>> {
  const { pool, store } = deps;
  const { rows } = await pool.query<{ id: string; author: string }>(
    `SELECT nextval('mural_stroke_ids') AS id, public_author_id($1) AS author`,
    [visitorId],
  );
  const strokeId = Number(rows[0]!.id);
  const points = input.points.length;
  await store.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock_shared($1)`, [MURAL_LOCK]);
    requireOpen((await muralState(deps, tx)).state);
    await spendVisitorPoints(tx, visitorId, points);
    await spendAddressPoints(tx, addressGroup, points);
    await addToMural(tx, points);
    const draw = { type: 'Draw', data: { strokeId, visitorId, ...input }, now: metadata.now } as const;
    await handleCommand(store, muralStrokeStream(strokeId), strokeDecider, draw, metadata, { tx });
  });
  // other visitors' spends past the window: cleared now and then, not on every stroke
  if (++draws % 200 === 0) {
    pool
      .query(`DELETE FROM mural_point_spends WHERE spent_at <= now() - make_interval(secs => $1)`, [WINDOW_SECONDS])
      .catch(() => {});
  }
  return { id: strokeId, authorId: rows[0]!.author, ...input };
}
