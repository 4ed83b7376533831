import { handleCommand } from '#events/handle.ts';
import type { EventMetadata } from '#events/metadata.ts';
import { SHOW_STREAM, showDecider, type ShowCommand } from '#events/show/show.ts';
import { findItem, type Kind } from '#projections/catalog/items.ts';
import { isInShow, readDeck } from '#projections/catalog/show.ts';
import { MONTAGE_ITEM, MURAL_ITEM } from '#contract/live.ts';
import type { Deps } from '../deps.ts';
import { HttpError, notFound } from '../http/errors.ts';
import { currentFilm } from '../montage/film.ts';
import { KINDS } from '../kinds.ts';
import { dateIn } from '../time.ts';

/** What the presenter asks of the show, as `POST /api/show` parses it. */
export type ShowAction =
  | { action: 'start' | 'pause' | 'resume' | 'stop' }
  | { action: 'next' | 'prev'; from?: number }
  | { action: 'goto' | 'queue'; kind: Kind | typeof MURAL_ITEM.kind | typeof MONTAGE_ITEM.kind; id?: number };

/**
 * Drives the show (CONTRACT §7): one command on its stream. The request's metadata is asked for only
 * once the command stands, so a refused one records nothing. The log position it was written at
 * (none when the command changed nothing).
 */
export async function driveShow(
  deps: Deps,
  input: ShowAction,
  metadataOf: () => Promise<EventMetadata>,
): Promise<number | undefined> {
  const command = await commandFor(deps, input);
  const metadata = await metadataOf();
  return (await handleCommand(deps.store, SHOW_STREAM, showDecider, command, metadata)).lastPosition;
}

async function commandFor(deps: Deps, input: ShowAction): Promise<ShowCommand> {
  switch (input.action) {
    case 'start': {
      const day = dateIn(deps.config.timeZone, deps.clock());
      return { type: 'start', items: await readDeck(deps.pool, day) };
    }
    case 'goto':
    case 'queue':
      if (input.kind === MURAL_ITEM.kind) {
        // the mural can always be shown, open, locked or frozen: it is there from the start
        if ((input.id ?? MURAL_ITEM.id) !== MURAL_ITEM.id) throw notFound('Mural');
        return { type: input.action, item: MURAL_ITEM, approved: true };
      }
      if (input.kind === MONTAGE_ITEM.kind) {
        // only a film of the videos approved now, the one /api/montage.mp4 serves (decision 125)
        if ((input.id ?? MONTAGE_ITEM.id) !== MONTAGE_ITEM.id) throw notFound('Montage');
        if (!(await currentFilm(deps.pool))) throw new HttpError(409, 'The montage is not ready');
        return { type: input.action, item: MONTAGE_ITEM, approved: true };
      }
      return submissionCommand(deps, input.action, { kind: input.kind, id: input.id! });
    case 'next':
    case 'prev':
      return { type: input.action, from: input.from };
    default:
      return { type: input.action };
  }
}

/** Going to or queueing a submission: it must be approved and visible, or already held by the show. */
async function submissionCommand(deps: Deps, action: 'goto' | 'queue', item: { kind: Kind; id: number }) {
  const visible = await findItem(deps.pool, item.kind, item.id, { admin: false });
  // an item the show already holds may be gone to even if it was archived since
  if (!visible && (action === 'queue' || !(await isInShow(deps.pool, item)))) throw notFound(KINDS[item.kind].label);
  return { type: action, item, approved: !!visible } satisfies ShowCommand;
}
