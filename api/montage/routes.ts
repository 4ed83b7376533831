import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import type { MontageStatus } from '#contract/montage.ts';
import { listApprovedVideos, type ApprovedVideo } from '#projections/catalog/approvedVideos.ts';
import { requireRole } from '../auth/middleware.ts';
import type { Deps } from '../deps.ts';
import { HttpError } from '../http/errors.ts';
import { parseRange } from '../http/range.ts';
import { sendStream } from '../http/sendStream.ts';
import { beginRun, readMontage, type MontageRow, type RunClip } from './montageRun.ts';

/** The approved videos are no longer those the run joined (an approval, a deletion, a withdrawal). */
const differs = (run: RunClip[], now: ApprovedVideo[]) =>
  run.length !== now.length || run.some((clip, i) => clip.id !== now[i]!.id);

function stateOf(row: MontageRow | undefined, now: ApprovedVideo[]): MontageStatus['state'] {
  if (!row) return 'none';
  if (row.state === 'ready' && differs(row.clips, now)) return 'stale';
  return row.state;
}

/** The montage (CONTRACT §12): the admin starts and follows it; any session plays it once made. */
export function montageRoutes(deps: Deps) {
  const router = Router();
  const adminOnly = requireRole('admin');

  async function status() {
    const [row, videos] = await Promise.all([readMontage(deps.pool), listApprovedVideos(deps.pool)]);
    const state = stateOf(row, videos);
    const answer: MontageStatus = {
      state,
      progress: row ? Math.round(row.progress * 100) / 100 : 0,
      clips: row ? row.clips.length : 0,
      duration: state === 'ready' || state === 'stale' ? row!.duration_seconds : null,
      approvedVideos: videos.length,
    };
    return { row, videos, answer };
  }

  router.get('/admin/montage', adminOnly, async (_req, res) => {
    res.json((await status()).answer);
  });

  /** Starts a run; asking again while one runs, or while a fresh film is ready, starts nothing new. */
  router.post('/admin/montage', adminOnly, async (_req, res) => {
    const { row, videos, answer } = await status();
    if (videos.length === 0) throw new HttpError(409, 'There are no approved video messages to join yet');
    const same = row && !differs(row.clips, videos);
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
    const { row, answer } = await status();
    if (answer.state !== 'ready' || !row?.file_key) throw new HttpError(404, 'The montage is not ready');
    const stat = await deps.blobs.stat(row.file_key);
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
    sendStream(await deps.blobs.read(row.file_key, part), res);
  });

  return router;
}
