import type pg from 'pg';
import { HttpError } from '../http/errors.ts';

/** Per visitor and day (docs/decisions/024); the address-wide count is in api/limits/limits.ts. */
export const UPLOAD_QUOTA = { files: 20, bytes: 2 * 1024 * 1024 * 1024 } as const;

export const UPLOAD_ALLOWANCE_USED = 'You have reached today’s upload allowance. Please try again tomorrow.';

/**
 * How many more bytes this visitor may upload today, or a 429 with Retry-After when the count or the
 * bytes of the last 24 hours are used up.
 */
export async function remainingUploadBytes(db: Pick<pg.Pool, 'query'>, visitorId: string): Promise<number> {
  const { rows } = await db.query<{ files: number; bytes: number; oldest: Date | null }>(
    `SELECT count(*)::int AS files, coalesce(sum(bytes), 0)::bigint AS bytes, min(created_at) AS oldest
     FROM media_uploads WHERE uploaded_by = $1 AND created_at > now() - interval '1 day'`,
    [visitorId],
  );
  const { files, bytes, oldest } = rows[0]!;
  if (files < UPLOAD_QUOTA.files && bytes < UPLOAD_QUOTA.bytes) return UPLOAD_QUOTA.bytes - bytes;
  // how long until the oldest upload leaves the day's window: elapsed time, not domain time (decision 147)
  const retryAfter = oldest ? Math.max(1, Math.ceil((oldest.getTime() + 86_400_000 - Date.now()) / 1000)) : 86_400;
  throw new HttpError(429, UPLOAD_ALLOWANCE_USED, {}, { 'Retry-After': String(retryAfter) });
}
