import { Router, type Request } from 'express';
import type pg from 'pg';
import { z } from 'zod';
import { MURAL_HEIGHT, MURAL_MAX_POINTS, MURAL_TOOLS, MURAL_WIDTH, type MuralStroke } from '#contract/mural.ts';
import { STROKE_COLOR, STROKE_OPACITY, STROKE_SIZE } from '#contract/strokes.ts';
import {
  MURAL_STREAM,
  muralDecider,
  muralStrokeStream,
  requireOpen,
  strokeDecider,
  type MuralCommand,
} from '#events/mural/mural.ts';
import { readMural } from '#projections/catalog/mural.ts';
import { catalogReached } from '#projections/catalog/readYourWrites.ts';
import { isAdmin, requireRole } from '../auth/middleware.ts';
import { submitArtwork } from '../artworks/submitArtwork.ts';
import type { Deps } from '../deps.ts';
import { handleCommand } from '#events/handle.ts';
import { idParam, metadataFor } from '../http/context.ts';
import { HttpError, parseInput } from '../http/errors.ts';
import { renderMural } from './render.ts';

/**
 * Serialises the mural's state changes against its strokes: a stroke or an undo holds this lock
 * shared while it reads the state and appends; lock, unlock and freeze hold it alone. So once a
 * lock has committed, no stroke can land after it (docs/decisions/038).
 */
const MURAL_LOCK = 0x6d7572616c; // 'mural'

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

/** The mural's state, read in `tx` (which holds the mural lock). */
function muralState(deps: Deps, tx: pg.PoolClient) {
  return deps.store.aggregate(MURAL_STREAM, muralDecider.evolve, muralDecider.initial, tx);
}

/** The mural (CONTRACT §8): read it, draw on it, undo, and an admin's lock, unlock and freeze. */
export function muralRoutes(deps: Deps) {
  const router = Router();
  const { pool, store } = deps;
  const adminOnly = requireRole('admin');

  router.get('/mural', async (req, res) => {
    res.json(await readMural(pool, req.session?.visitorId ?? null));
  });

  router.post('/mural/strokes', async (req, res) => {
    const input = parseInput(MuralStrokeInput, req.body);
    const visitorId = req.session!.visitorId;
    const metadata = await metadataFor(req, deps.personal);
    const { rows } = await pool.query<{ id: string }>(`SELECT nextval('mural_stroke_ids') AS id`);
    const strokeId = Number(rows[0]!.id);
    await store.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock_shared($1)`, [MURAL_LOCK]);
      requireOpen((await muralState(deps, tx)).state);
      const draw = { type: 'Draw', data: { strokeId, visitorId, ...input }, now: metadata.now } as const;
      await handleCommand(store, muralStrokeStream(strokeId), strokeDecider, draw, metadata, { tx });
    });
    const { rows: author } = await pool.query<{ id: string }>(`SELECT public_author_id($1) AS id`, [visitorId]);
    const stroke: Omit<MuralStroke, 'position'> = { id: strokeId, authorId: author[0]!.id, ...input };
    res.status(201).json(stroke);
  });

  router.delete('/mural/strokes/:id', async (req, res) => {
    const id = idParam(req.params.id);
    if (!id) throw new HttpError(404, 'Stroke not found');
    const admin = isAdmin(req);
    const metadata = await metadataFor(req, deps.personal);
    const position = await store.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock_shared($1)`, [MURAL_LOCK]);
      const { state } = await muralState(deps, tx);
      // an admin tidies a locked mural; a frozen one is an artwork now
      if (!(admin && state === 'locked')) requireOpen(state);
      const erase = { type: 'Erase', visitorId: req.session?.visitorId, admin, now: metadata.now } as const;
      return (await handleCommand(store, muralStrokeStream(id), strokeDecider, erase, metadata, { tx })).lastPosition;
    });
    await catalogReached(pool, position);
    res.json({ success: true, id });
  });

  /** Lock and unlock: one event each, the same twice is nothing. */
  async function changeState(req: Request, command: MuralCommand) {
    const metadata = await metadataFor(req, deps.personal);
    const position = await store.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock($1)`, [MURAL_LOCK]);
      return (await handleCommand(store, MURAL_STREAM, muralDecider, command, metadata, { tx })).lastPosition;
    });
    await catalogReached(pool, position);
    return readMural(pool, req.session?.visitorId ?? null);
  }

  const stateOnly = ({ state, position, artworkId }: Awaited<ReturnType<typeof readMural>>) => ({
    state,
    position,
    artworkId,
  });

  router.post('/mural/lock', adminOnly, async (req, res) => {
    res.json(stateOnly(await changeState(req, { type: 'Lock', now: new Date().toISOString() })));
  });
  router.post('/mural/unlock', adminOnly, async (req, res) => {
    res.json(stateOnly(await changeState(req, { type: 'Unlock', now: new Date().toISOString() })));
  });

  /**
   * Freeze: lock the mural (no stroke lands after this), wait for the catalog to hold every stroke,
   * paint them with the browsers' painter, submit the picture as an artwork (pending, isFromCanvas),
   * and record the freeze with its artwork. One freeze at a time: the mural lock is held throughout,
   * on a connection of its own, so undo waits too and the picture is exactly the mural.
   */
  router.post('/mural/freeze', adminOnly, async (req, res) => {
    const held = await pool.connect();
    try {
      await held.query(`SELECT pg_advisory_lock($1)`, [MURAL_LOCK]);
      const metadata = await metadataFor(req, deps.personal);
      const lock = { type: 'Lock', now: metadata.now } as const;
      await handleCommand(store, MURAL_STREAM, muralDecider, lock, metadata);
      const { rows } = await pool.query<{ at: string | null }>(`SELECT max(position)::text AS at FROM events`);
      if ((await catalogReached(pool, rows[0]!.at === null ? undefined : Number(rows[0]!.at), 10_000)) === null) {
        throw new HttpError(503, 'The mural is still catching up; try again in a moment');
      }
      const mural = await readMural(pool, null);
      const png = renderMural(mural.strokes);
      const artists = new Set(mural.strokes.map((s) => s.authorId)).size;
      const { artworkId, position: submittedAt } = await submitArtwork(
        deps,
        {
          title: 'The group mural',
          description: `Drawn together by ${artists} ${artists === 1 ? 'person' : 'people'}, ${mural.strokes.length} strokes.`,
          tags: 'mural',
          imageData: `data:image/png;base64,${png.toString('base64')}`,
          artistName: 'Everyone',
          email: 'mural@tribute.invalid',
          isFromCanvas: true,
        },
        metadata,
      );
      const freeze = { type: 'Freeze', artworkId, strokeCount: mural.strokes.length, now: metadata.now } as const;
      const { lastPosition: frozenAt } = await handleCommand(store, MURAL_STREAM, muralDecider, freeze, metadata);
      await catalogReached(pool, Math.max(frozenAt ?? 0, submittedAt ?? 0) || undefined);
      res.status(201).json({ state: 'frozen', artworkId, strokeCount: mural.strokes.length, status: 'pending' });
    } finally {
      await held.query(`SELECT pg_advisory_unlock($1)`, [MURAL_LOCK]).catch(() => {});
      held.release();
    }
  });

  return router;
}
