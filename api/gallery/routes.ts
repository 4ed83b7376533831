import { Router, type Request, type Response } from 'express';
import { GalleryPages, type PageAnswer } from '#projections/catalog/galleryPage.ts';
import { galleryAtRoute } from '../history/galleryAt.ts';
import type { Deps } from '../deps.ts';
import { parseInput } from '../http/errors.ts';
import { atLogPosition } from '../http/logPosition.ts';
import { wroteAt } from '../http/readYourWrites.ts';
import { dateIn } from '../time.ts';
import { GalleryQuery } from './query.ts';

export function galleryRoutes(deps: Deps) {
  const router = Router();
  const pages = new GalleryPages();
  const galleryAt = galleryAtRoute(deps);

  router.get('/gallery', async (req, res) => {
    // time travel (CONTRACT §6): the gallery as right after event SEQ, for admins and auditors
    if (req.query.at !== undefined) return galleryAt(req, res);
    const { page, q } = parseInput(GalleryQuery, req.query);
    const day = dateIn(deps.config.timeZone, deps.clock());
    // where this process knows the catalog stands, unless the browser wrote past that (decision 028)
    const { known } = deps.realtime;
    const seen = wroteAt(req) > known.at ? undefined : known.at;
    const answer = await pages.answer(deps.pool, { page, q, day, seen });
    known.advance(answer.position);
    sendPage(req, res, answer);
  });

  return router;
}

/**
 * The page's bytes with the catalog position they reflect (`X-Log-Position`, which live messages
 * after it are applied on top of) and an ETag; a matching `If-None-Match` is a 304. Browsers keep
 * the page but ask again each time (`no-cache`).
 */
function sendPage(req: Request, res: Response, answer: PageAnswer) {
  atLogPosition(res, answer.position).set({ 'Cache-Control': 'private, no-cache', ETag: answer.etag });
  if (etagMatches(req.get('if-none-match'), answer.etag)) {
    res.status(304).end();
    return;
  }
  res.type('application/json').vary('Accept-Encoding');
  // the cached page is gzipped once, not on every request (compression leaves encoded bodies alone)
  if (req.acceptsEncodings('gzip', 'identity') === 'gzip') res.set('Content-Encoding', 'gzip').send(answer.gzip());
  else res.send(answer.body);
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
