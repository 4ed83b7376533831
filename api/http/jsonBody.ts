import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { HttpError } from './errors.ts';

/** CONTRACT §9: deeper JSON is refused before it is parsed. */
export const MAX_JSON_DEPTH = 32;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The deepest nesting of objects and arrays in JSON text, read in one pass without recursion
 * (brackets inside strings do not count). It stops as soon as `stopAbove` is passed, and does not
 * judge whether the text is valid: JSON.parse does that afterwards.
 */
export function jsonDepth(text: Uint8Array, stopAbove = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > stopAbove) return deepest;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return deepest;
}

/** Methods whose calls here never take a body. */
const NO_BODY = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

const carriesBody = (req: Request) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

const TOO_DEEP = 'json.too.deep';

/** body-parser's `verify`: what it throws comes back to `next` wrapped, with the raw body on it. */
function refuseDeepJson(_req: Request, _res: Response, body: Buffer) {
  if (jsonDepth(body, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw Object.assign(new Error(TOO_DEEP), { type: TOO_DEEP });
}

/**
 * The API's JSON bodies, refused cheaply: a body on a call that takes none, and JSON nested deeper
 * than 32 levels, are 400 before anything parses them (a deep body would otherwise overflow the stack
 * of every recursive walk after JSON.parse). `isLarge` picks the calls allowed 28 MB.
 */
export function jsonBodies(isLarge: (req: Request) => boolean): RequestHandler {
  // Artwork submissions carry a data URL: a 20 MB image is about 27 MB as base64 text.
  const large = express.json({ limit: '28mb', verify: refuseDeepJson });
  const small = express.json({ limit: '100kb', verify: refuseDeepJson });
  return (req: Request, res: Response, next: NextFunction) => {
    if (NO_BODY.has(req.method) && carriesBody(req)) throw new HttpError(400, 'This call takes no body');
    (isLarge(req) ? large : small)(req, res, (error?: unknown) => {
      if ((error as { type?: string } | undefined)?.type !== TOO_DEEP) return next(error);
      next(new HttpError(400, `JSON nested deeper than ${MAX_JSON_DEPTH} levels`));
    });
  };
}
