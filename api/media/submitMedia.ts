import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type pg from 'pg';
import { z } from 'zod';
import { nextId } from '#db/ids.ts';
import { mediaDecider, mediaStream } from '#events/media/media.ts';
import type { EventMetadata } from '#events/metadata.ts';
import { handleCommand } from '#events/handle.ts';
import type { Deps } from '../deps.ts';
import { HttpError } from '../http/errors.ts';
import { describedFields, submissionData, submitterFields } from '../http/fields.ts';
import { MediaRejected, probeMedia, type ProbedMedia } from '../video/index.ts';

/** Spec §5 media submit schema, with its messages. */
export const MediaSubmission = z.object({
  ...describedFields,
  mediaData: z.string({ error: 'Media file is required' }).trim().min(1, 'Media file is required').max(1000),
  mediaType: z.enum(['video', 'audio'], { error: 'Media type is required' }),
  mimeType: z.string({ error: 'MIME type is required' }).trim().min(1, 'MIME type is required').max(255),
  ...submitterFields,
});
export type MediaSubmission = z.output<typeof MediaSubmission>;

export interface StoredUpload {
  id: string;
  key: string;
  path: string;
  probed: ProbedMedia;
  bytes: number;
}

/** `objects/…`, `/objects/…` and a bare key all name the same stored upload (spec §3). */
export function uploadKeyOf(mediaData: string): string {
  return mediaData.replace(/^\/+/, '').replace(/^objects\//, '');
}

/**
 * Checks an uploaded temp file with ffprobe, then streams it into storage and records it as an
 * upload waiting for its submission. The temp file is always removed.
 */
export async function storeUpload(
  deps: Deps,
  tmpPath: string,
  bytes: number,
  uploadedBy: string,
): Promise<StoredUpload> {
  try {
    const probed = await probeMedia(tmpPath).catch((error: unknown) => {
      if (error instanceof MediaRejected) throw new HttpError(error.status, error.message);
      throw error;
    });
    const id = randomUUID();
    const key = `uploads/${id}/original.${probed.container}`;
    await deps.blobs.put(key, fs.createReadStream(tmpPath), { contentType: probed.mimeType });
    await deps.pool.query(
      `INSERT INTO media_uploads
         (id, key, media_type, mime_type, bytes, duration_seconds, browser_playable, uploaded_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [id, key, probed.kind, probed.mimeType, bytes, probed.durationSeconds, probed.browserPlayable, uploadedBy],
    );
    return { id, key, path: `/objects/${key}`, probed, bytes };
  } finally {
    await fs.promises.rm(tmpPath, { force: true });
  }
}

/**
 * Claims the upload, records the submission and its personal data, and queues the poster/transcode job, all
 * in one transaction.
 */
export async function submitMedia(
  deps: Deps,
  input: MediaSubmission,
  metadata: EventMetadata,
  visitorId: string | undefined,
): Promise<{ mediaId: number; position: number | undefined }> {
  const key = uploadKeyOf(input.mediaData);
  const mediaId = await nextId(deps.pool, 'media_ids');
  const { lastPosition } = await deps.store.transaction(async (tx) => {
    const { rows: claimed } = await tx.query<{
      key: string;
      media_type: 'video' | 'audio';
      mime_type: string;
      bytes: number;
      duration_seconds: number;
      browser_playable: boolean;
    }>(
      // a visitor claims only an upload of their own (uploads from before migration 009 have no owner)
      `UPDATE media_uploads SET claimed_by = $2
       WHERE key = $1 AND claimed_by IS NULL AND (uploaded_by IS NULL OR uploaded_by = $3) RETURNING *`,
      [key, mediaId, visitorId ?? null],
    );
    const upload = claimed[0];
    if (!upload)
      throw new HttpError(400, 'No file uploaded', {
        errors: [{ path: 'mediaData', message: 'Please upload a video or audio file first.' }],
      });
    if (upload.media_type !== input.mediaType)
      throw new HttpError(400, `This file is ${upload.media_type}, not ${input.mediaType}`);
    const result = await handleCommand(
      deps.store,
      mediaStream(mediaId),
      mediaDecider,
      {
        type: 'SubmitMedia',
        now: metadata.now,
        data: {
          mediaId,
          ...(await submissionData(deps.personal, input, tx, { stream: mediaStream(mediaId), visitorId })),
          mediaType: upload.media_type,
          // what ffprobe found wins over what the browser declared
          mimeType: upload.mime_type,
          file: { key: upload.key, contentType: upload.mime_type, bytes: upload.bytes },
          durationSeconds: upload.duration_seconds,
          browserPlayable: upload.browser_playable,
        },
      },
      metadata,
      { tx },
    );
    await deps.jobs.send('process-media', { mediaId }, tx);
    return result;
  });
  return { mediaId, position: lastPosition };
}

/** Whether the visitor uploaded the file of media item `mediaId` (what `POST /api/process` allows besides an admin). */
export async function isUploader(db: Pick<pg.Pool, 'query'>, mediaId: number, visitorId: string): Promise<boolean> {
  const { rowCount } = await db.query(`SELECT 1 FROM media_uploads WHERE claimed_by = $1 AND uploaded_by = $2`, [
    mediaId,
    visitorId,
  ]);
  return rowCount === 1;
}
