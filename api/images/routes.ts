import { Router, type Response } from 'express';
import { CARD_ASPECT, CARD_WIDTHS, cardUrl, type CardKind } from '#projections/catalog/cardImages.ts';
import { isAdmin } from '../auth/middleware.ts';
import type { Deps } from '../deps.ts';
import { idParam } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { wroteAt } from '../http/readYourWrites.ts';
import { BlobNotFound } from '../storage/index.ts';
import { KINDS } from '../kinds.ts';
import { cardKey, cardPrefix, loadCardImages } from './cards.ts';
import { CardSources } from './cardSources.ts';

/** The kinds whose cards show a picture (an artwork, a video's poster), by their name in the URL. */
const CARD_KINDS = new Map(Object.keys(CARD_ASPECT).map((kind) => [kind, kind as CardKind]));
const IMMUTABLE = 'private, max-age=31536000, immutable';
/** Hot card images kept in memory: a page of 20 cards in three widths is well under 4 MB. */
const MEMORY_BYTES = 48 * 1024 * 1024;

/**
 * Card images at versioned URLs (`/api/images/:kind/:id/:version/:width.webp`), made on first
 * request from the stored rendition, kept beside the item's other files and in memory, and served
 * as immutable: the URL changes whenever the source does. Only items the visitor may see.
 */
export function imageRoutes(deps: Deps) {
  const router = Router();
  const memory = new Map<string, Buffer>();
  let memoryBytes = 0;
  const making = new Map<string, Promise<Map<number, Buffer>>>();
  const origins = new CardSources(deps.pool, () => deps.realtime.known.at);

  router.get('/images/:kind/:id/:version/:file', async (req, res) => {
    const kind = CARD_KINDS.get(req.params.kind);
    const id = idParam(req.params.id);
    const width = Number(/^(\d+)\.webp$/.exec(req.params.file)?.[1]);
    if (!kind || !id || !(CARD_WIDTHS as readonly number[]).includes(width)) throw notFound('Image');
    const { label } = KINDS[kind];
    const origin = await origins.find(kind, id, { admin: isAdmin(req) }, wroteAt(req));
    if (!origin) throw notFound(label);
    const { source, version } = origin;
    if (version !== req.params.version) {
      // an older URL: point at the current one, which is the one to cache
      res.set('Cache-Control', 'no-cache').redirect(302, cardUrl(kind, id, version, width));
      return;
    }
    const key = cardKey(kind, id, version, width);
    const etag = `"${version}-${width}"`;
    if (req.get('if-none-match') === etag) {
      res.status(304).set({ ETag: etag, 'Cache-Control': IMMUTABLE }).end();
      return;
    }
    let bytes = memory.get(key);
    if (!bytes) {
      // one making per card: every width from one decode of the source
      const card = cardPrefix(kind, id, version);
      let pending = making.get(card);
      if (!pending) {
        pending = loadCardImages(deps.blobs, { kind, id, version }, source.key).finally(() => making.delete(card));
        making.set(card, pending);
      }
      let all: Map<number, Buffer>;
      try {
        all = await pending;
      } catch (error) {
        if (error instanceof BlobNotFound) throw notFound(label);
        throw error;
      }
      for (const [w, b] of all) remember(`${card}-${w}.webp`, b);
      bytes = all.get(width)!;
    }
    send(res, bytes, etag);
  });

  function remember(key: string, bytes: Buffer) {
    if (memory.has(key)) return;
    memory.set(key, bytes);
    memoryBytes += bytes.length;
    for (const [oldest, old] of memory) {
      if (memoryBytes <= MEMORY_BYTES) break;
      memory.delete(oldest);
      memoryBytes -= old.length;
    }
  }

  return router;
}

function send(res: Response, bytes: Buffer, etag: string) {
  res.set({
    'Content-Type': 'image/webp',
    'Cache-Control': IMMUTABLE,
    ETag: etag,
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(bytes);
}
