import type pg from 'pg';
import type { MontageStatus } from '#contract/montage.ts';
import { listApprovedVideos, type ApprovedVideo } from '#projections/catalog/approvedVideos.ts';
import { readMontage, type MontageRow, type RunClip } from './montageRun.ts';

type Db = Pick<pg.Pool, 'query'>;

/** The approved videos are no longer those the run joined (an approval, a deletion, a withdrawal). */
const differs = (run: RunClip[], now: ApprovedVideo[]) =>
  run.length !== now.length || run.some((clip, i) => clip.id !== now[i]!.id);

function stateOf(row: MontageRow | undefined, now: ApprovedVideo[]): MontageStatus['state'] {
  if (!row) return 'none';
  if (row.state === 'ready' && differs(row.clips, now)) return 'stale';
  return row.state;
}

/** The latest run, the approved videos now, and the montage's state as `GET /api/admin/montage` says it. */
export async function montageStatus(db: Db) {
  const [row, videos] = await Promise.all([readMontage(db), listApprovedVideos(db)]);
  const state = stateOf(row, videos);
  const answer: MontageStatus = {
    state,
    progress: row ? Math.round(row.progress * 100) / 100 : 0,
    clips: row ? row.clips.length : 0,
    duration: state === 'ready' || state === 'stale' ? row!.duration_seconds : null,
    approvedVideos: videos.length,
  };
  return { row, videos, answer, same: !!row && !differs(row.clips, videos) };
}

/** The film as it may be shown: whole, and of exactly the videos approved now. */
export interface Film {
  key: string;
  clips: number;
  durationSeconds: number;
}

/**
 * The montage that may be played, on `/api/montage.mp4`, the big screen or in the keepsake: only a
 * `ready` film of the approved videos as they are now. A stale one may hold a video that is no
 * longer approved (decision 093), so it is none.
 */
export async function currentFilm(db: Db): Promise<Film | undefined> {
  const { row, answer } = await montageStatus(db);
  if (answer.state !== 'ready' || !row?.file_key) return undefined;
  return { key: row.file_key, clips: row.clips.length, durationSeconds: row.duration_seconds ?? 0 };
}
