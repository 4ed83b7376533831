import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { listApprovedVideos } from '#projections/catalog/approvedVideos.ts';
import type { Deps } from '../deps.ts';
import type { JobPayloads } from '../jobs/jobQueue.ts';
import { log } from '../observability/logger.ts';
import { joinMontageSegments, probeMedia, renderMontageSegment } from '../video/index.ts';
import { recordFailed, recordProgress, recordReady, resumeRun, readMontage } from './montageRun.ts';

/**
 * Makes the run's film (CONTRACT §12): each clip of the run, read from the store into a work
 * directory of its own, becomes a part (title card, then the clip, normalised), and the parts are
 * joined. Only a whole film is stored, under a key of its own run, and only then recorded as ready,
 * so nothing half-written is ever served. A run that a newer one replaced does nothing; a retry (the
 * worker was killed) starts the run again from nothing. Names are read from the catalog as it is now.
 */
export async function handleMakeMontage(deps: Deps, { runId }: JobPayloads['make-montage']) {
  if (!(await resumeRun(deps.pool, runId))) return;
  const run = (await readMontage(deps.pool))!;
  const work = path.join(deps.config.dataDir, 'tmp', `montage-${runId}`);
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  try {
    const names = new Map((await listApprovedVideos(deps.pool)).map((video) => [video.id, video.name]));
    const parts: string[] = [];
    let seconds = 0;
    for (const [index, clip] of run.clips.entries()) {
      const clipName = `clip-${index}${path.extname(clip.key) || '.bin'}`;
      await pipeline(await deps.blobs.read(clip.key), fs.createWriteStream(path.join(work, clipName)));
      const part = `part-${String(index).padStart(4, '0')}.mp4`;
      await renderMontageSegment(work, clipName, names.get(clip.id) ?? '', part);
      fs.rmSync(path.join(work, clipName), { force: true });
      parts.push(part);
      await recordProgress(deps.pool, runId, (index + 1) / (run.clips.length + 1));
    }
    await joinMontageSegments(work, parts, 'montage.mp4');
    const film = path.join(work, 'montage.mp4');
    seconds = (await probeMedia(film)).durationSeconds;
    const key = `montage/${runId}.mp4`;
    await deps.blobs.put(key, fs.createReadStream(film), { contentType: 'video/mp4' });
    const bytes = fs.statSync(film).size;
    const { current, replaced } = await recordReady(deps.pool, runId, { key, bytes, durationSeconds: seconds });
    if (!current) await deps.blobs.delete(key);
    else if (replaced && replaced !== key) await deps.blobs.delete(replaced);
  } catch (error) {
    log.warn({ err: error, runId }, 'montage run failed');
    await recordFailed(deps.pool, runId);
    throw error;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
