import { buffer } from 'node:stream/consumers';
import { artworkStream } from '#events/artworks/artwork.ts';
import { artworkDecider } from '#events/artworks/decide.ts';
import { handleCommand } from '#events/handle.ts';
import type { Deps } from '../deps.ts';
import { makeRenditions } from '../images/index.ts';
import type { JobHandlers, JobPayloads } from './jobQueue.ts';

const system = () => ({ role: 'system' as const, now: new Date().toISOString() });

/** Makes the display size and the WebP thumbnail; running it again changes nothing. */
async function handleMakeArtworkRenditions(deps: Deps, { artworkId }: JobPayloads['make-artwork-renditions']) {
  const stream = artworkStream(artworkId);
  const { state } = await deps.store.aggregate(stream, artworkDecider.evolve, artworkDecider.initial);
  if (!state.exists || state.renditions) return;
  const original = await buffer(await deps.blobs.read(state.image.key));
  const { display, thumbnail } = await makeRenditions(original);
  const stored = async (name: string, r: typeof display) => {
    const key = `artworks/${artworkId}/${name}.webp`;
    await deps.blobs.put(key, r.buffer, { contentType: r.contentType });
    return { key, contentType: r.contentType, width: r.width, height: r.height, bytes: r.buffer.length };
  };
  const data = { display: await stored('display', display), thumbnail: await stored('thumbnail', thumbnail) };
  const metadata = system();
  await handleCommand(deps.store, stream, artworkDecider, { type: 'RecordRenditions', data, now: metadata.now }, metadata);
}

export function jobHandlers(deps: Deps): JobHandlers {
  return {
    'make-artwork-renditions': (data) => handleMakeArtworkRenditions(deps, data),
  };
}
