import type pg from 'pg';
import { artworkStream } from '#events/artworks/artwork.ts';
import { artworkDecider } from '#events/artworks/decide.ts';
import type { DomainEvent } from '#events/catalog.ts';
import type { Decider } from '#events/decider.ts';
import { StaleVersion } from '#events/errors.ts';
import { handleCommand } from '#events/handle.ts';
import { mediaDecider, mediaStream } from '#events/media/media.ts';
import type { EventMetadata } from '#events/metadata.ts';
import { storyDecider, storyStream } from '#events/stories/story.ts';
import type { Kind } from '#projections/catalog/items.ts';
import type { Deps } from '../deps.ts';
import { blankDeletedItem } from '../erasure.ts';
import { removeItemFiles } from '../kinds.ts';

/** The words of an edit, as refs to the new personal data rows (null: none). */
export type EditRefs = Record<string, number | null>;

type Tx = pg.PoolClient;
type Run = (store: Deps['store'], tx: Tx, metadata: EventMetadata) => Promise<number | undefined>;

/** Runs one command on an item's stream through its kind's decider, in the caller's transaction. */
function on<S, E extends DomainEvent, C>(stream: string, decider: Decider<S, E, C>, command: C): Run {
  return async (store, tx, metadata) =>
    (await handleCommand(store, stream, decider, command, metadata, { tx })).lastPosition;
}

function editCommand(kind: Kind, id: number, refs: EditRefs, now: string): Run {
  const r = (key: string) => refs[key] ?? null;
  if (kind === 'story') {
    const data = { titleRef: r('titleRef'), contentRef: r('contentRef'), authorNameRef: r('authorNameRef') };
    return on(storyStream(id), storyDecider, { type: 'EditStory', data, now });
  }
  const data = {
    titleRef: r('titleRef'),
    descriptionRef: r('descriptionRef'),
    tagsRef: r('tagsRef'),
    artistNameRef: r('artistNameRef'),
  };
  if (kind === 'artwork') return on(artworkStream(id), artworkDecider, { type: 'EditArtwork', data, now });
  return on(mediaStream(id), mediaDecider, { type: 'EditMedia', data, now });
}

function withdrawCommand(kind: Kind, id: number, now: string): Run {
  if (kind === 'story') return on(storyStream(id), storyDecider, { type: 'WithdrawStory', now });
  if (kind === 'artwork') return on(artworkStream(id), artworkDecider, { type: 'WithdrawArtwork', now });
  return on(mediaStream(id), mediaDecider, { type: 'WithdrawMedia', now });
}

/** Decides again on fresh state when a job (renditions, transcode) appended to the item meanwhile. */
async function retryStale<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof StaleVersion) || attempt >= 3) throw error;
    }
  }
}

/**
 * The sender changes the words of their pending item (CONTRACT §11): new personal data rows, tied to
 * the same subject as the item's first words (none for an anonymous story), and an `…Edited` event
 * naming them, in one transaction. A decided item refuses (409) and nothing is kept.
 */
export async function editContribution(
  deps: Deps,
  kind: Kind,
  id: number,
  texts: Record<string, string | null>,
  metadata: EventMetadata,
): Promise<number | undefined> {
  const stream = `${kind}-${id}`;
  return retryStale(() =>
    deps.store.transaction(async (tx) => {
      const { rows } = await tx.query<{ subject_id: number | null }>(
        `SELECT subject_id FROM personal_data WHERE stream_id = $1 AND subject_id IS NOT NULL LIMIT 1`,
        [stream],
      );
      const owner = { stream, subjectId: rows[0]?.subject_id ?? null };
      const refs = await deps.personal.recordTexts(texts as Record<'title', string | null>, owner, tx);
      return editCommand(kind, id, refs, metadata.now)(deps.store, tx, metadata);
    }),
  );
}

/**
 * The sender takes their item back, whatever its state (CONTRACT §11): a `…Withdrawn` event, and its
 * names and words blanked as a delete's are (decision 050), in one transaction; once committed, its
 * files go. Withdrawing again changes nothing.
 */
export async function withdrawContribution(
  deps: Deps,
  kind: Kind,
  id: number,
  metadata: EventMetadata,
): Promise<number | undefined> {
  const stream = `${kind}-${id}`;
  const position = await retryStale(() =>
    deps.store.transaction(async (tx) => {
      const at = await withdrawCommand(kind, id, metadata.now)(deps.store, tx, metadata);
      await blankDeletedItem(tx, kind, id, stream);
      return at;
    }),
  );
  const { rows } = await deps.pool.query<{ upload_key: string | null }>(
    `SELECT data->'file'->>'key' AS upload_key FROM events WHERE stream_id = $1 AND type = 'MediaSubmitted' LIMIT 1`,
    [stream],
  );
  await removeItemFiles(deps.blobs, [{ kind, id, uploadKey: rows[0]?.upload_key }]);
  return position;
}
