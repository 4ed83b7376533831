import { handleCommand } from '#events/handle.ts';
import type { EventMetadata } from '#events/metadata.ts';
import { muralStrokeStream, requireOpen, strokeDecider } from '#events/mural/mural.ts';
import type { Deps } from '../deps.ts';
import { MURAL_LOCK, muralState } from './muralLock.ts';

/**
 * Undo (the author's own stroke) or an admin's removal (any stroke, also while the mural is locked:
 * a frozen one is an artwork now). The stroke's points go back to the mural's budget in the same
 * transaction. Answers the log position of the removal.
 */
export async function eraseStroke(
  deps: Pick<Deps, 'store'>,
  strokeId: number,
  by: { visitorId: string | undefined; admin: boolean },
  metadata: EventMetadata,
): Promise<number | undefined> {
  const { store } = deps;
  return store.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock_shared($1)`, [MURAL_LOCK]);
    const { state } = await muralState(deps, tx);
    if (!(by.admin && state === 'locked')) requireOpen(state);
    const erase = { type: 'Erase', ...by, now: metadata.now } as const;
    const erased = await handleCommand(store, muralStrokeStream(strokeId), strokeDecider, erase, metadata, { tx });
    if (erased.state.exists) {
      await tx.query(`UPDATE mural_budget SET points = greatest(points - $1, 0)`, [erased.state.points]);
    }
    return erased.lastPosition;
  });
}
