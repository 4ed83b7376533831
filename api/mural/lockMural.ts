import { handleCommand } from '#events/handle.ts';
import type { EventMetadata } from '#events/metadata.ts';
import { MURAL_STREAM, muralDecider } from '#events/mural/mural.ts';
import { catalogReached } from '#projections/catalog/readYourWrites.ts';
import { readMuralStateAt } from '#projections/catalog/mural.ts';
import type { Deps } from '../deps.ts';
import { MURAL_LOCK } from './muralLock.ts';

/**
 * An admin's lock or unlock: one event each, the same twice is nothing. Holds the mural lock alone,
 * so no stroke lands after a lock has committed (docs/decisions/038). Answers the mural's state once
 * the catalog has it.
 */
export async function lockMural(deps: Pick<Deps, 'pool' | 'store'>, type: 'Lock' | 'Unlock', metadata: EventMetadata) {
  const { pool, store } = deps;
  const command = { type, now: metadata.now } as const;
  const position = await store.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock($1)`, [MURAL_LOCK]);
    return (await handleCommand(store, MURAL_STREAM, muralDecider, command, metadata, { tx })).lastPosition;
  });
  await catalogReached(pool, position);
  return readMuralStateAt(pool);
}
