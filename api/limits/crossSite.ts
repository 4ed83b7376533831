import type { NextFunction, Request, Response } from 'express';
import { HttpError } from '../http/errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The only calls that take a file as multipart/form-data (the app's own upload form). */
const MULTIPART_CALLS = new Set(['POST /upload-direct', 'POST /media/submit-optimized']);
/** A resumable upload's bytes (tus 1.0, api/media/resumable.ts): a type no cross-site form can send. */
const TUS_BYTES = 'application/offset+octet-stream';
const isTusCall = (req: Request) =>
  (req.method === 'POST' && req.path === '/uploads') || (req.method === 'PATCH' && /^\/uploads\/[^/]+$/.test(req.path));

/** A video's caption track (decision 123): `text/vtt`, which no cross-site form can send either. */
const isCaptionCall = (req: Request) => req.method === 'PUT' && /^\/media\/[^/]+\/captions$/.test(req.path);

/**
 * State-changing calls refuse cross-site requests (docs/decisions/021): a browser's own
 * Sec-Fetch-Site or Origin must say same origin, and bodies are JSON (multipart only where a file is
 * uploaded). A cross-site page cannot send JSON without a CORS preflight, which this API never grants.
 */
export function refuseCrossSite(trustProxy: boolean) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    // a browser's own Sec-Fetch-Site cannot be set by a page, and it holds behind a proxy that
    // rewrites Host (Vite's dev server); Origin is the check for browsers that do not send it
    const site = req.get('sec-fetch-site');
    if (site && site !== 'same-origin' && site !== 'none') throw new HttpError(403, 'Cross-site request refused');
    const origin = req.get('origin');
    if (!site && origin !== undefined && !sameOrigin(origin, req, trustProxy)) {
      throw new HttpError(403, 'Cross-site request refused');
    }
    const type = (req.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (isTusCall(req)) {
      if (type === TUS_BYTES || (type === '' && req.method === 'POST')) return next();
      throw new HttpError(415, `Send the bytes as ${TUS_BYTES}`);
    }
    if (isCaptionCall(req)) {
      if (type === 'text/vtt') return next();
      throw new HttpError(415, 'Invalid file type');
    }
    const multipartAllowed = MULTIPART_CALLS.has(`${req.method} ${req.path}`);
    const allowed = type === '' || type === 'application/json' || (multipartAllowed && type === 'multipart/form-data');
    if (!allowed) {
      throw new HttpError(415, multipartAllowed ? 'Send the file as multipart/form-data' : 'Send JSON');
    }
    next();
  };
}

function sameOrigin(origin: string, req: Request, trustProxy: boolean): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" and anything else that is not an origin
  }
  const forwarded = trustProxy ? req.get('x-forwarded-host')?.split(',')[0]?.trim() : undefined;
  const host = forwarded ?? req.get('host');
  return !!host && url.host.toLowerCase() === host.toLowerCase();
}
