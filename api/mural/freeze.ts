import type pg from 'pg';
import type { EventMetadata } from '#events/metadata.ts';
import { MURAL_STREAM, muralDecider } from '#events/mural/mural.ts';
import { handleCommand } from '#events/handle.ts';
import { catalogReached } from '#projections/catalog/readYourWrites.ts';
import { submitArtwork } from '../artworks/submitArtwork.ts';
import { paintMuralOffTheLoop } from '../canvas/painters.ts';
import type { Deps } from '../deps.ts';
import { HttpError } from '../http/errors.ts';
import { MURAL_LOCK } from './muralLock.ts';

/**
 * The strokes in painting order as one JSON text, and how many strokes and authors: PostgreSQL
 * builds the text, so the API parses none of the mural's points (up to 500,000).
 */
async function strokesAsJson(db: Pick<pg.Pool, 'query'>) {
  const { rows } = await db.query<{ strokes: string; count: number; authors: number }>(
    `SELECT coalesce(json_agg(json_build_object('tool', tool, 'color', color, 'size', size, 'opacity', opacity,
              'points', points) ORDER BY seq, id), '[]')::text AS strokes,
            count(*)::int AS count, count(DISTINCT author_id)::int AS authors
     FROM catalog_mural_strokes`,
  );
  return rows[0]!;
}

/**
 * Freeze: lock the mural (no stroke lands after this), wait for the catalog to hold every stroke,
 * paint them with the browsers' painter in a worker thread, submit the picture as an artwork
 * (pending, isFromCanvas), and record the freeze with its artwork. One freeze at a time: the mural
 * lock is held throughout, on a connection of its own, so undo waits too and the picture is exactly
 * the mural.
 */
export async function freezeMural(deps: Deps, metadata: EventMetadata) {
  const { pool, store } = deps;
  const held = await pool.connect();
  try {
    await held.query(`SELECT pg_advisory_lock($1)`, [MURAL_LOCK]);
    const lock = { type: 'Lock', now: metadata.now } as const;
    await handleCommand(store, MURAL_STREAM, muralDecider, lock, metadata);
    const { rows } = await pool.query<{ at: string | null }>(`SELECT max(position)::text AS at FROM events`);
    if ((await catalogReached(pool, rows[0]!.at === null ? undefined : Number(rows[0]!.at), 10_000)) === null) {
      throw new HttpError(503, 'The mural is still catching up; try again in a moment');
    }
    const { strokes, count, authors } = await strokesAsJson(pool);
    const png = await paintMuralOffTheLoop(strokes);
    const { artworkId, position: submittedAt } = await submitArtwork(
      deps,
      {
        title: 'The group mural',
        description: `Drawn together by ${authors} ${authors === 1 ? 'person' : 'people'}, ${count} strokes.`,
        altText: null,
        tags: 'mural',
        imageData: `data:image/png;base64,${png.toString('base64')}`,
        artistName: 'Everyone',
        email: 'mural@tribute.invalid',
        isFromCanvas: true,
      },
      metadata,
    );
    const freeze = { type: 'Freeze', artworkId, strokeCount: count, now: metadata.now } as const;
    const { lastPosition: frozenAt } = await handleCommand(store, MURAL_STREAM, muralDecider, freeze, metadata);
    await catalogReached(pool, Math.max(frozenAt ?? 0, submittedAt ?? 0) || undefined);
    return { state: 'frozen' as const, artworkId, strokeCount: count, status: 'pending' as const };
  } finally {
    await held.query(`SELECT pg_advisory_unlock($1)`, [MURAL_LOCK]).catch(() => {});
    held.release();
  }
}
