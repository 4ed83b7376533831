import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { Server, type ServerOptions } from '@tus/server';
import { Router, type Request, type Response } from 'express';
import type { Deps } from '../deps.ts';
import { HttpError, storageFull } from '../http/errors.ts';
import { log, serializeError } from '../observability/logger.ts';
import { isStorageFull } from '../storage/capacity.ts';
import { storeUpload } from './submitMedia.ts';

/** The one place @tus/server is used: resumable uploads (tus 1.0, docs/decisions/106). */
export const RESUMABLE_PATH = '/api/uploads';
/** An upload not finished within a day is removed, and its URL answers 404 (or 410 before the sweep). */
const EXPIRES_AFTER_MS = 24 * 60 * 60 * 1000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;
/** Ids are @tus/server's own (16 random bytes in hex); anything else names no upload. */
const UPLOAD_ID = /^[0-9a-f]{32}$/;

type TusRequest = Parameters<NonNullable<ServerOptions['onIncomingRequest']>>[0];
type TusUpload = Parameters<NonNullable<ServerOptions['onUploadFinish']>>[1];
/** What tus answers with instead of throwing an HttpError; @tus/server reads these two fields. */
type TusRefusal = { status_code: number; body: string };

export interface UploadRoom {
  /** The most this request's upload may hold (429 or 507 thrown when there is no room at all). */
  limit(req: Request): Promise<{ maxBytes: number; storageBound: boolean }>;
  /** Counts a stored upload's bytes against the address's daily allowance. */
  spent(req: Request, bytes: number): Promise<void>;
}

const refusal = (status: number, message: string): TusRefusal => ({
  status_code: status,
  body: JSON.stringify({ message }),
});

/** The Express request the tus request was made from: the session is on it. */
function expressRequest(req: TusRequest): Request {
  const node = req.runtime?.node?.req;
  if (!node) throw new Error('resumable uploads run under Node only');
  return node as unknown as Request;
}

/** The owner is kept as a digest: the temp file's record never holds the browser's identity itself. */
const ownerOf = (req: Request) => createHash('sha256').update(req.session!.visitorId).digest('hex');

/**
 * tus 1.0 (creation, HEAD, PATCH with Upload-Offset, termination, expiration) at /api/uploads, for a
 * visitor's own uploads only. A finished upload is probed and stored exactly as POST /api/upload-direct
 * stores a file (storeUpload), and the last PATCH answers 200 with the same JSON; until then its bytes
 * are only in DATA_DIR/tmp/tus, which nothing else reads.
 */
export function resumableUploads(deps: Deps, tmpDir: string, room: UploadRoom) {
  const store = new FileStore({
    directory: path.join(tmpDir, 'tus'),
    expirationPeriodInMilliseconds: EXPIRES_AFTER_MS,
  });
  let lastSweep = 0;

  const tus = new Server({
    path: RESUMABLE_PATH,
    datastore: store,
    relativeLocation: true,
    // same origin only: no Access-Control-Allow-Origin for anyone
    allowedOrigins: () => false,
    disableTerminationForFinishedUploads: true,

    async maxSize(req) {
      const express = expressRequest(req);
      const { maxBytes, storageBound } = await room.limit(express);
      const declared = Number(req.headers.get('upload-length') ?? 0);
      if (storageBound && declared > maxBytes) throw storageFull();
      return maxBytes;
    },

    async onIncomingRequest(req, id) {
      if (!UPLOAD_ID.test(id)) throw refusal(404, 'Upload not found');
      if (req.method === 'POST') return;
      const upload = await store.getUpload(id);
      if (upload.metadata?.owner !== ownerOf(expressRequest(req))) throw refusal(404, 'Upload not found');
    },

    async onUploadCreate(req, upload) {
      if (upload.sizeIsDeferred) throw refusal(400, 'Upload-Length is required');
      const declaredType = upload.metadata?.filetype;
      if (declaredType && !/^(video|audio)\//.test(declaredType)) throw refusal(415, 'Invalid file type');
      // the name and anything else the client sent are not kept
      return { metadata: { owner: ownerOf(expressRequest(req)) } };
    },

    async onUploadFinish(req, upload) {
      const express = expressRequest(req);
      const stored = await finish(express, upload);
      return {
        status_code: 200,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          success: true,
          id: stored.id,
          path: stored.path,
          supabasePath: stored.key,
          mediaType: stored.probed.kind,
          mimeType: stored.probed.mimeType,
        }),
      };
    },

    onResponseError(_req, error) {
      if (error instanceof HttpError) return { status_code: error.status, body: JSON.stringify(error.body) };
      if ('status_code' in error && error.status_code < 500) {
        return error.body.startsWith('{') ? error : refusal(error.status_code, error.body.trim());
      }
      log.error({ err: serializeError(error) }, 'resumable upload failed');
      return refusal(500, 'Upload failed');
    },
  });

  /**
   * Moves the whole file out of the tus folder and forgets the upload, then probes and stores it:
   * refused (415) or not, nothing of it stays behind, and the same URL answers 404 after.
   */
  async function finish(req: Request, upload: TusUpload) {
    const file = path.join(tmpDir, `upload-${randomUUID()}`);
    await fs.promises.rename(path.join(store.directory, upload.id), file);
    await store.configstore.delete(upload.id);
    try {
      const stored = await storeUpload(deps, file, upload.size!, req.session!.visitorId);
      await room.spent(req, stored.bytes);
      return stored;
    } catch (error) {
      if (isStorageFull(error)) throw storageFull();
      throw error;
    }
  }

  function sweepExpired() {
    // how long since the last sweep: elapsed time, not domain time (decision 147)
    if (Date.now() - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = Date.now();
    tus.cleanUpExpiredUploads().catch((error: unknown) => log.warn({ err: serializeError(error) }, 'tus sweep failed'));
  }

  const router = Router();
  const handle = async (req: Request, res: Response) => {
    await tus.handle(req, res);
  };
  router.post('/uploads', async (req, res) => {
    sweepExpired();
    await handle(req, res);
  });
  router.head('/uploads/:id', handle);
  router.patch('/uploads/:id', handle);
  router.delete('/uploads/:id', handle);
  return router;
}
