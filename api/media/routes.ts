import fs from 'node:fs';
import path from 'node:path';
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { findItem, findItemAt, listVisible, toView, type CatalogRow } from '#projections/catalog/items.ts';
import { isAdmin } from '../auth/middleware.ts';
import type { Deps } from '../deps.ts';
import { idParam, metadataFor } from '../http/context.ts';
import { HttpError, notFound, parseInput, storageFull } from '../http/errors.ts';
import { atLogPosition } from '../http/logPosition.ts';
import { receiveMediaFile, type ReceivedFile } from '../http/multipart.ts';
import { sendRanged, sendStream } from '../http/sendStream.ts';
import { readYourWrites } from '../http/readYourWrites.ts';
import { uploadBytesPerAddress } from '../limits/limits.ts';
import { isStorageFull, StorageCapacity } from '../storage/capacity.ts';
import { BlobNotFound } from '../storage/index.ts';
import { captionRoutes } from './captions.ts';
import { resumableUploads } from './resumable.ts';
import { isUploader, MediaSubmission, storeUpload, submitMedia, type StoredUpload } from './submitMedia.ts';
import { remainingUploadBytes, UPLOAD_ALLOWANCE_USED } from './uploadQuota.ts';

const ProcessRequest = z.object({
  id: z.coerce.number({ error: 'Media id is required' }).int().positive('Media id is required'),
});

export function mediaRoutes(deps: Deps) {
  const router = Router();
  const { pool } = deps;
  const tmpDir = path.join(deps.config.dataDir, 'tmp');

  /** The media the request names, with the catalog position it reflects; 404 unless the viewer may see it. */
  async function visibleMediaAt(req: Request): Promise<{ row: CatalogRow; position: number }> {
    const id = idParam(req.params.id as string);
    const found = id && (await findItemAt(pool, 'media', id, { admin: isAdmin(req) }));
    if (!found || !found.row.media) throw notFound('Media');
    return found;
  }
  const visibleMedia = async (req: Request) => (await visibleMediaAt(req)).row;

  // an upload lands in tmpDir, then (local store) is copied into blobDir: both take its bytes at once
  const capacity = new StorageCapacity(
    deps.blobs,
    deps.config.minio ? [tmpDir] : [tmpDir, deps.config.blobDir],
    deps.config.storage,
  );
  const addressBytes = uploadBytesPerAddress(pool);

  /**
   * The most this upload may hold: the configured maximum, or less when the visitor's or the address
   * group's daily allowance (429 when used up) or the storage (507 when full) has less room left.
   */
  async function uploadLimit(req: Request): Promise<{ maxBytes: number; storageBound: boolean }> {
    const visitor = await remainingUploadBytes(pool, req.session!.visitorId);
    const address = await addressBytes.room(req);
    if (address.bytes === 0) {
      throw new HttpError(429, UPLOAD_ALLOWANCE_USED, {}, { 'Retry-After': String(address.retryAfter) });
    }
    const allowed = Math.min(deps.config.mediaMaxBytes, visitor, address.bytes);
    const storage = await capacity.room();
    if (storage === 0) throw storageFull();
    return { maxBytes: Math.min(allowed, storage), storageBound: storage < allowed };
  }

  /**
   * Receives the upload's file and keeps it (storeUpload), within its limits: a file that does not fit
   * in the storage left is 507 `Storage is full`, and nothing of it stays behind.
   */
  async function receiveAndStore(req: Request, field: string, check?: (file: ReceivedFile) => Promise<void>) {
    const { maxBytes, storageBound } = await uploadLimit(req);
    try {
      const file = await receiveMediaFile(req, { field, maxBytes, tmpDir });
      if (check) await check(file);
      const upload: StoredUpload = await storeUpload(deps, file.path, file.bytes, req.session!.visitorId);
      await addressBytes.spent(req, upload.bytes);
      return { file, upload };
    } catch (error) {
      if (storageBound && error instanceof HttpError && error.status === 413) throw storageFull();
      if (isStorageFull(error)) throw storageFull();
      throw error;
    }
  }

  async function answerSubmission(req: Request, res: Response, input: MediaSubmission) {
    const metadata = await metadataFor(req, deps);
    const { mediaId, position } = await submitMedia(deps, input, metadata, req.session?.visitorId);
    await readYourWrites(deps, res, position);
    const row = await findItem(pool, 'media', mediaId, { admin: true });
    res.status(201).json(row ? { success: true, ...toView(row, { admin: false }) } : { success: true, id: mediaId });
  }

  router.get('/media', async (req, res) => {
    const viewer = { admin: isAdmin(req) };
    res.json((await listVisible(pool, 'media', viewer)).map((r) => toView(r, viewer)));
  });

  router.post('/media', async (req, res) => {
    await answerSubmission(req, res, parseInput(MediaSubmission, req.body));
  });

  router.use(
    resumableUploads(deps, tmpDir, { limit: uploadLimit, spent: (req, bytes) => addressBytes.spent(req, bytes) }),
  );

  /** The first step of a media submission: the file alone, streamed to storage. */
  router.post('/upload-direct', async (req, res) => {
    const { upload } = await receiveAndStore(req, 'file');
    res.status(201).json({
      success: true,
      id: upload.id,
      path: upload.path,
      supabasePath: upload.key,
      mediaType: upload.probed.kind,
      mimeType: upload.probed.mimeType,
    });
  });

  /** The fallback: file and form in one multipart request. */
  router.post('/media/submit-optimized', async (req, res) => {
    let input: MediaSubmission | undefined;
    const { upload } = await receiveAndStore(req, 'media', async (file) => {
      try {
        input = parseInput(MediaSubmission, { ...file.fields, mediaData: 'pending-upload', mimeType: file.mimeType });
      } catch (error) {
        await fs.promises.rm(file.path, { force: true });
        throw error;
      }
    });
    await answerSubmission(req, res, { ...input!, mediaData: upload.key, mediaType: upload.probed.kind });
  });

  /**
   * Post-processing after a save (spec §7): queues the poster/transcode job again; running it twice is
   * harmless. Only for the visitor who uploaded the file, or an admin; to anyone else every id is 404.
   */
  router.post('/process', async (req, res) => {
    const { id } = parseInput(ProcessRequest, req.body);
    const row =
      (isAdmin(req) || (await isUploader(pool, id, req.session!.visitorId))) &&
      (await findItem(pool, 'media', id, { admin: true }));
    if (!row) throw notFound('Media');
    await deps.jobs.send('process-media', { mediaId: id });
    res.json({ success: true, queued: true });
  });

  router.use(captionRoutes(deps));

  router.get('/media/:id', async (req, res) => {
    const viewer = { admin: isAdmin(req) };
    const { row, position } = await visibleMediaAt(req);
    atLogPosition(res, position).json(toView(row, viewer));
  });

  router.get('/media/:id/thumbnail', async (req, res) => {
    const poster = (await visibleMedia(req)).media!.poster;
    if (!poster) throw notFound('Media');
    await sendBlob(res, poster.key, poster.contentType);
  });

  /**
   * Video or audio with Range support: the file the job made, without the upload's metadata. Until it
   * exists nothing is served; media processed before that job made one keeps its original.
   */
  router.get('/media/:id/stream', async (req, res) => {
    const media = (await visibleMedia(req)).media!;
    if (!media.playable && media.poster === undefined) {
      throw new HttpError(409, 'This media is still being processed. Please try again in a moment.');
    }
    const file = media.playable ?? media.file;
    const stat = await deps.blobs.stat(file.key);
    if (!stat) throw notFound('Media');
    await sendRanged(req, res, {
      size: stat.size,
      contentType: file.contentType,
      cacheControl: 'private, max-age=3600',
      read: (part) => deps.blobs.read(file.key, part),
    });
  });

  async function sendBlob(res: Response, key: string, contentType: string) {
    try {
      const body = await deps.blobs.read(key);
      res.set({
        'Content-Type': contentType,
        'Cache-Control': 'private, max-age=86400',
        'X-Content-Type-Options': 'nosniff',
      });
      sendStream(body, res);
    } catch (error) {
      if (error instanceof BlobNotFound) throw new HttpError(404, 'Media not found');
      throw error;
    }
  }

  return router;
}
