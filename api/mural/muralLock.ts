import type pg from 'pg';
import { MURAL_STREAM, muralDecider } from '#events/mural/mural.ts';
import type { Deps } from '../deps.ts';

/**
 * Serialises the mural's state changes against its strokes: a stroke or an undo holds this lock
 * shared while it reads the state and appends; lock, unlock and freeze hold it alone. So once a
 * lock has committed, no stroke can land after it (docs/decisions/038).
 */
export const MURAL_LOCK = 0x6d7572616c; // 'mural'

/** The mural's state, read in `tx` (which holds the mural lock). */
export function muralState(deps: Pick<Deps, 'store'>, tx: pg.PoolClient) {
  return deps.store.aggregate(MURAL_STREAM, muralDecider.evolve, muralDecider.initial, tx);
}
