import { z } from 'zod';
import { nextId } from '#db/ids.ts';
import { artworkStream } from '#events/artworks/artwork.ts';
import { artworkDecider } from '#events/artworks/decide.ts';
import { handleCommand } from '#events/handle.ts';
import type { Deps } from '../deps.ts';
import type { EventMetadata } from '#events/metadata.ts';
import { HttpError } from '../http/errors.ts';
import { altText, describedFields, submissionData, submitterFields } from '../http/fields.ts';
import { ImageRejected, normaliseUpload } from '../images/index.ts';
import { itemFolder } from '../kinds.ts';
import type { StrokeRecording } from '#contract/strokes.ts';
import { holdRecordingToImage } from './recordingMatches.ts';

export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
const ACCEPTED = new Set(['image/jpeg', 'image/jpg', 'image/png', 'image/gif', 'image/webp']);

/** Spec §5, artwork submit schema, with its messages. */
export const ArtworkSubmission = z.object({
  ...describedFields,
  altText,
  imageData: z.string({ error: 'Image is required' }).min(1, 'Image is required'),
  ...submitterFields,
  // spec §5: text, 'true' from the drawing studio and 'false' from the upload form; never a boolean
  isFromCanvas: z
    .enum(['true', 'false'], { error: "isFromCanvas must be the text 'true' or 'false'" })
    .optional()
    .transform((v) => v === 'true'),
});

/** Decodes a base64 image data URL, refusing other types before any bytes are decoded. */
export function decodeDataUrl(dataUrl: string): Buffer {
  const match = /^data:([\w.+-]+\/[\w.+-]+);base64,/.exec(dataUrl);
  if (!match || !ACCEPTED.has(match[1]!.toLowerCase())) throw new HttpError(415, 'Invalid file type');
  const payload = dataUrl.slice(match[0].length);
  if (Math.floor((payload.length * 3) / 4) > MAX_IMAGE_BYTES + 3) throw new HttpError(413, 'File too large');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(payload)) throw new HttpError(415, 'Invalid file type');
  const bytes = Buffer.from(payload, 'base64');
  if (bytes.length > MAX_IMAGE_BYTES) throw new HttpError(413, 'File too large');
  return bytes;
}

/**
 * Stores the cleaned original, then records the submission, its personal data and its rendition job
 * in one transaction. If that fails, the stored file goes too: a failed request leaves nothing behind.
 * The submitter's `visitorId` ties the personal data to them, so erasing them erases it; without it
 * (the mural's picture) it belongs to no one. A drawing's `recording` must end on its image (400
 * before anything is written, CONTRACT §9): the room is shown it being drawn.
 */
export async function submitArtwork(
  deps: Deps,
  input: z.output<typeof ArtworkSubmission>,
  metadata: EventMetadata,
  { visitorId, recording }: { visitorId?: string; recording?: StrokeRecording } = {},
): Promise<{ artworkId: number; position: number | undefined }> {
  const raw = decodeDataUrl(input.imageData);
  const image = await normaliseUpload(raw).catch((error: unknown) => {
    if (error instanceof ImageRejected) throw new HttpError(error.status, error.message);
    throw error;
  });
  if (recording) await holdRecordingToImage(recording, image);
  const artworkId = await nextId(deps.pool, 'artwork_ids');
  const key = `${itemFolder('artwork', artworkId)}original.${image.extension}`;
  await deps.blobs.put(key, image.buffer, { contentType: image.contentType });
  let position: number | undefined;
  try {
    await deps.store.transaction(async (tx) => {
      const result = await handleCommand(
        deps.store,
        artworkStream(artworkId),
        artworkDecider,
        {
          type: 'SubmitArtwork',
          now: metadata.now,
          data: {
            artworkId,
            ...(await submissionData(
              deps.personal,
              input,
              tx,
              { stream: artworkStream(artworkId), visitorId },
              { altText: input.altText },
            )),
            isFromCanvas: input.isFromCanvas,
            image: {
              key,
              contentType: image.contentType,
              width: image.width,
              height: image.height,
              bytes: image.buffer.length,
            },
          },
        },
        metadata,
        { tx },
      );
      position = result.lastPosition;
      await deps.jobs.send('make-artwork-renditions', { artworkId }, tx);
    });
  } catch (error) {
    await deps.blobs.delete(key).catch(() => {});
    throw error;
  }
  return { artworkId, position };
}
