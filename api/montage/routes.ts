import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import { requireRole } from '../auth/middleware.ts';
import type { Deps } from '../deps.ts';
import { HttpError } from '../http/errors.ts';
import { sendRanged } from '../http/sendStream.ts';
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
    await sendRanged(req, res, {
      size: stat.size,
      contentType: 'video/mp4',
      cacheControl: 'private, no-cache',
      read: (part) => deps.blobs.read(film.key, part),
    });
  });

  return router;
}
