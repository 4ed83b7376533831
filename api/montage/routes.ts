import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import { requireRole } from '../auth/middleware.ts';
import type { Deps } from '../deps.ts';
import { HttpError } from '../http/errors.ts';
import { parseRange } from '../http/range.ts';
import { sendStream } from '../http/sendStream.ts';
import { currentFilm, montageStatus } from './film.ts';
import { beginRun } from './montageRun.ts';

/** The montage (CONTRACT §12): the admin starts and follows it; any session plays it once made. */
export function montageRoutes(deps: Deps) {
  const router = Router();
  const adminOnly = requireRole('admin');

  const status = () => montageStatus(deps.pool);

  router.get('/admin/montage', adminOnly, async (_req, res) => {
    res.json((await status()).answer);
  });

  /** Starts a run; asking again while one runs, or while a fresh film is ready, starts nothing new. */
  router.post('/admin/montage', adminOnly, async (_req, res) => {
    const { videos, answer, same } = await status();
    if (videos.length === 0) throw new HttpError(409, 'There are no approved video messages to join yet');
    if (same && (answer.state === 'running' || answer.state === 'ready')) {
      res.status(202).json(answer);
      return;
    }
    const runId = randomUUID();
    await beginRun(
      deps.pool,
      runId,
      videos.map((video) => ({ id: video.id, key: video.file.key })),
    );
    await deps.jobs.send('make-montage', { runId });
    res.status(202).json((await status()).answer);
  });

  /** The film, with Range, while it is the film of the approved videos as they are now. */
  router.get('/montage.mp4', async (req, res) => {
    const film = await currentFilm(deps.pool);
    if (!film) throw new HttpError(404, 'The montage is not ready');
    const stat = await deps.blobs.stat(film.key);
    if (!stat) throw new HttpError(404, 'The montage is not ready');
    const range = parseRange(req.get('range'), stat.size);
    res.set({ 'Accept-Ranges': 'bytes', 'Content-Type': 'video/mp4', 'Cache-Control': 'private, no-cache' });
    if (range.kind === 'unsatisfiable') {
      res.status(416).set('Content-Range', `bytes */${stat.size}`).end();
      return;
    }
    const part = range.kind === 'part' ? { start: range.start, end: range.end } : undefined;
    if (part) res.status(206).set('Content-Range', `bytes ${part.start}-${part.end}/${stat.size}`);
    res.set('Content-Length', String(part ? part.end - part.start + 1 : stat.size));
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    sendStream(await deps.blobs.read(film.key, part), res);
  });

  return router;
}
