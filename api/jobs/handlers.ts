import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { buffer } from 'node:stream/consumers';
import { artworkStream } from '#events/artworks/artwork.ts';
import { artworkDecider } from '#events/artworks/decide.ts';
import { DomainError } from '#events/errors.ts';
import { handleCommand } from '#events/handle.ts';
import type { Deps } from '../deps.ts';
import { itemFolder, removeItemFiles } from '../kinds.ts';
import { makeRenditions } from '../images/index.ts';
import { storeCardImages } from '../images/cards.ts';
import { cardVersionOf } from '#projections/catalog/cardImages.ts';
import { mediaDecider, mediaStream } from '#events/media/media.ts';
import { makePoster, removeMetadata, transcodeToM4a, transcodeToMp4 } from '../video/index.ts';
import { handleMakeMontage } from '../montage/makeMontage.ts';
import type { JobHandlers, JobPayloads } from './jobQueue.ts';

const system = (deps: Deps) => ({ role: 'system' as const, now: deps.clock().toISOString() });

/** Makes the display size and the WebP thumbnail; running it again changes nothing. */
async function handleMakeArtworkRenditions(deps: Deps, { artworkId }: JobPayloads['make-artwork-renditions']) {
  const stream = artworkStream(artworkId);
  const { state } = await deps.store.aggregate(stream, artworkDecider.evolve, artworkDecider.initial);
  if (state.exists && state.renditions) return;
  if (!state.exists || (await deps.store.isErased(stream))) return removeLeftovers(deps, 'artwork', artworkId);
  const original = await buffer(await deps.blobs.read(state.image.key));
  const { display, thumbnail } = await makeRenditions(original);
  const stored = async (name: string, r: typeof display) => {
    const key = `${itemFolder('artwork', artworkId)}${name}.webp`;
    await deps.blobs.put(key, r.buffer, { contentType: r.contentType });
    return { key, contentType: r.contentType, width: r.width, height: r.height, bytes: r.buffer.length };
  };
  const data = { display: await stored('display', display), thumbnail: await stored('thumbnail', thumbnail) };
  // the gallery's card images too, so that the first crowd finds them made (else made on first request)
  const card = { kind: 'artwork' as const, id: artworkId, version: cardVersionOf(data.display) };
  await storeCardImages(deps.blobs, card, display.buffer).catch(() => undefined);
  const metadata = system(deps);
  await handleCommand(
    deps.store,
    stream,
    artworkDecider,
    { type: 'RecordRenditions', data, now: metadata.now },
    metadata,
  ).catch(goneMeanwhile(deps, 'artwork', artworkId));
}

/**
 * An item deleted, withdrawn or erased while its job ran: the files the job just stored would outlive
 * the removal that took the others, so they go too, and the job is done.
 */
const goneMeanwhile = (deps: Deps, kind: 'artwork' | 'media', id: number) => async (error: unknown) => {
  if (!(error instanceof DomainError) || error.status !== 404) throw error;
  await removeItemFiles(deps.blobs, [{ kind, id }]);
};

/**
 * A job for an item that is gone (deleted, withdrawn or erased) has nothing to make. An earlier attempt
 * may have stored something after the removal took the item's folder and then failed before it could
 * learn the item was gone (a store into the folder removed under it): that goes now, so a retry ends
 * with nothing of the item left. The removal is idempotent; an item that never existed has no folder.
 */
const removeLeftovers = (deps: Deps, kind: 'artwork' | 'media', id: number) =>
  removeItemFiles(deps.blobs, [{ kind, id }]);

/**
 * A poster frame for video, and the file browsers are served: an H.264/AAC MP4 (or an AAC M4A for audio)
 * when they can't play the original (MOV, AVI, Opus as Chromium records it), else the original's streams copied without its metadata (title, location...).
 * Works on a local copy in DATA_DIR/tmp, whatever the storage; running it again changes nothing.
 */
async function handleProcessMedia(deps: Deps, { mediaId }: JobPayloads['process-media']) {
  const stream = mediaStream(mediaId);
  const { state } = await deps.store.aggregate(stream, mediaDecider.evolve, mediaDecider.initial);
  if (state.exists && state.processed) return;
  if (!state.exists || (await deps.store.isErased(stream))) return removeLeftovers(deps, 'media', mediaId);
  const tmp = path.join(deps.config.dataDir, 'tmp');
  fs.mkdirSync(tmp, { recursive: true });
  const work = fs.mkdtempSync(path.join(tmp, `media-${mediaId}-`));
  try {
    const source = path.join(work, path.basename(state.file.key));
    await pipeline(await deps.blobs.read(state.file.key), fs.createWriteStream(source));
    const store = async (name: string, file: string, contentType: string) => {
      const key = `${itemFolder('media', mediaId)}${name}`;
      await deps.blobs.put(key, fs.createReadStream(file), { contentType });
      return { key, contentType, bytes: fs.statSync(file).size };
    };
    let poster = null;
    let playable = null;
    if (state.mediaType === 'video') {
      await makePoster(source, path.join(work, 'poster.jpg'));
      poster = await store('poster.jpg', path.join(work, 'poster.jpg'), 'image/jpeg');
    }
    if (state.mediaType === 'video' && !state.browserPlayable) {
      await transcodeToMp4(source, path.join(work, 'playable.mp4'));
      playable = await store('playable.mp4', path.join(work, 'playable.mp4'), 'video/mp4');
    } else if (state.mediaType === 'audio' && !state.browserPlayable) {
      await transcodeToM4a(source, path.join(work, 'playable.m4a'));
      playable = await store('playable.m4a', path.join(work, 'playable.m4a'), 'audio/mp4');
    } else {
      const name = `clean${path.extname(state.file.key)}`;
      await removeMetadata(source, path.join(work, name), state.mediaType);
      playable = await store(name, path.join(work, name), state.file.contentType);
    }
    const metadata = system(deps);
    const command = { type: 'RecordProcessing' as const, data: { poster, playable }, now: metadata.now };
    await handleCommand(deps.store, stream, mediaDecider, command, metadata).catch(
      goneMeanwhile(deps, 'media', mediaId),
    );
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Removes uploads that no submission claimed within a day: their files and their rows. */
export async function handleSweepUploads(deps: Deps) {
  const { rows } = await deps.pool.query<{ id: string; key: string }>(
    `SELECT id, key FROM media_uploads WHERE claimed_by IS NULL AND created_at < now() - interval '1 day'`,
  );
  for (const { id, key } of rows) {
    await deps.blobs.delete(key);
    await deps.pool.query(`DELETE FROM media_uploads WHERE id = $1 AND claimed_by IS NULL`, [id]);
  }
}

export function jobHandlers(deps: Deps): JobHandlers {
  return {
    'sweep-uploads': () => handleSweepUploads(deps),
    'make-artwork-renditions': (data) => handleMakeArtworkRenditions(deps, data),
    'process-media': (data) => handleProcessMedia(deps, data),
    'make-montage': (data) => handleMakeMontage(deps, data),
  };
}
