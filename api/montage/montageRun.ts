import type pg from 'pg';

type Db = Pick<pg.Pool, 'query'>;

/** A clip of a run: the media and the stored file it was read from. */
export interface RunClip {
  id: number;
  key: string;
}

export interface MontageRow {
  run_id: string;
  state: 'running' | 'ready' | 'failed';
  progress: number;
  clips: RunClip[];
  duration_seconds: number | null;
  file_key: string | null;
  bytes: number | null;
}

/** The latest run (migration 028), or undefined before the first. */
export async function readMontage(db: Db): Promise<MontageRow | undefined> {
  const { rows } = await db.query<MontageRow>(
    `SELECT run_id, state, progress, clips, duration_seconds, file_key, bytes::float8 AS bytes FROM montage WHERE id = 1`,
  );
  return rows[0];
}

/**
 * A new run replaces the row's run and progress; the film it made before stays recorded (file_key),
 * so that its file can be removed once the new one is whole, but is not served while this one runs.
 */
export async function beginRun(db: Db, runId: string, clips: RunClip[]): Promise<void> {
  await db.query(
    `INSERT INTO montage (id, run_id, state, progress, clips) VALUES (1, $1, 'running', 0, $2)
     ON CONFLICT (id) DO UPDATE SET run_id = $1, state = 'running', progress = 0, clips = $2,
       started_at = now(), finished_at = NULL`,
    [runId, JSON.stringify(clips)],
  );
}

/** A retry of the same run (a worker killed mid-way) starts again from nothing. True if it is still current. */
export async function resumeRun(db: Db, runId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE montage SET state = 'running', progress = 0 WHERE id = 1 AND run_id = $1 AND state <> 'ready'`,
    [runId],
  );
  return rowCount === 1;
}

export async function recordProgress(db: Db, runId: string, progress: number): Promise<void> {
  await db.query(`UPDATE montage SET progress = $2 WHERE id = 1 AND run_id = $1 AND state = 'running'`, [
    runId,
    Math.min(1, Math.max(0, progress)),
  ]);
}

/** The run's film is whole and stored: it is the one served. Answers the key of the film it replaces. */
export async function recordReady(
  db: Db,
  runId: string,
  film: { key: string; bytes: number; durationSeconds: number },
): Promise<{ current: boolean; replaced: string | null }> {
  const { rows } = await db.query<{ replaced: string | null }>(
    `UPDATE montage m SET state = 'ready', progress = 1, file_key = $2, bytes = $3, duration_seconds = $4,
       finished_at = now()
     FROM (SELECT file_key AS replaced FROM montage WHERE id = 1 FOR UPDATE) old
     WHERE m.id = 1 AND m.run_id = $1 AND m.state = 'running'
     RETURNING old.replaced`,
    [runId, film.key, film.bytes, film.durationSeconds],
  );
  return rows[0] ? { current: true, replaced: rows[0].replaced } : { current: false, replaced: null };
}

export async function recordFailed(db: Db, runId: string): Promise<void> {
  await db.query(
    `UPDATE montage SET state = 'failed', finished_at = now() WHERE id = 1 AND run_id = $1 AND state = 'running'`,
    [runId],
  );
}

/**
 * An erased sender's name card must not stay in a stored film (issue 26): when the run's clips hold
 * one of these media, the film is forgotten (its key answered, for the caller to remove) and a run
 * still making one is stopped (its job stores nothing, see recordReady). The state then reads
 * `stale` (its clips are no longer the approved videos) or `failed`, and the admin makes it again.
 * A film kept from an earlier run while a new one runs is forgotten too: its clips are not recorded.
 */
export async function takeDownFilmWith(db: Db, mediaIds: number[]): Promise<string | null> {
  const { rows } = await db.query<{ removed: string | null }>(
    `WITH held AS (
       SELECT EXISTS (SELECT 1 FROM jsonb_array_elements(clips) c WHERE (c->>'id')::int = ANY($1::int[])) AS yes
       FROM montage WHERE id = 1 FOR UPDATE)
     UPDATE montage m SET file_key = NULL, bytes = NULL, duration_seconds = NULL,
       state = CASE WHEN m.state = 'running' AND held.yes THEN 'failed' ELSE m.state END,
       progress = CASE WHEN held.yes THEN 0 ELSE m.progress END
     FROM held, (SELECT file_key AS removed FROM montage WHERE id = 1) old
     WHERE m.id = 1 AND (held.yes OR (m.state <> 'ready' AND m.file_key IS NOT NULL))
     RETURNING old.removed`,
    [mediaIds],
  );
  return rows[0]?.removed ?? null;
}
