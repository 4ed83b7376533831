import type pg from 'pg';
import type { ErasedChange, ForgetChange } from '../catalog/statements/statement.ts';

type Db = Pick<pg.Pool, 'query'>;

/**
 * What one delete or erasure takes out of the live outbox (docs/decisions/073): every message before
 * it that names one of its items (`artwork-12`: the arrival with its title and names, likes,
 * comments on it, reactions), and the arrivals of its comments on other items. Everything else stays,
 * so a screen that was away during a delete is caught up, not told to refetch.
 */
export interface Forgetting {
  position: number;
  items: string[];
  comments: number[];
}

/**
 * The forgettings of a catalog batch, in log order: what its statements declare forgotten (a delete,
 * a withdrawal), and each erasure's items and comments, read from `erased_streams`.
 */
export async function forgettingsIn(
  db: Db,
  changes: ReadonlyArray<(ForgetChange | ErasedChange) & { position: number }>,
): Promise<Forgetting[]> {
  const found: Forgetting[] = [];
  for (const c of changes) {
    if (c.what === 'forget') {
      found.push({ position: c.position, items: [`${c.kind}-${c.id}`], comments: [] });
      continue;
    }
    const { rows } = await db.query<{ stream_id: string }>(
      `SELECT stream_id FROM erased_streams WHERE subject_id = $1 ORDER BY stream_id`,
      [c.subjectId],
    );
    const streams = rows.map((r) => r.stream_id);
    found.push({
      position: c.position,
      items: streams.filter((s) => /^(artwork|story|media)-\d+$/.test(s)),
      comments: streams.flatMap((s) => (/^comment-\d+$/.test(s) ? [Number(s.slice('comment-'.length))] : [])),
    });
  }
  return found;
}

/** Whether a message (of this batch, or one a tail holds in memory) is one a forgetting takes. */
export function forgets(f: Forgetting, event: string, payload: { position: number }): boolean {
  if (payload.position >= f.position) return false;
  const p = payload as { kind?: unknown; id?: unknown; item?: { id?: unknown }; comment?: { id?: unknown } };
  // an arrival names its item inside it; every other message about an item names it by `id`
  const id = p.id ?? p.item?.id;
  if (typeof p.kind === 'string' && typeof id === 'number' && f.items.includes(`${p.kind}-${id}`)) return true;
  return event === 'comments:added' && typeof p.comment?.id === 'number' && f.comments.includes(p.comment.id);
}

/** Takes a forgetting's messages out of the outbox and records it, for every API process's tail to forget too. */
export async function forgetInOutbox(db: Db, f: Forgetting): Promise<void> {
  await db.query(
    `WITH recorded AS (
       INSERT INTO live_forgotten (position, items, comments) VALUES ($1, $2::text[], $3::bigint[])
       ON CONFLICT (position) DO NOTHING)
     DELETE FROM live_messages
     WHERE position < $1 AND (
       (payload->>'kind') || '-' || coalesce(payload->>'id', payload->'item'->>'id') = ANY($2::text[])
       OR (event = 'comments:added' AND (payload->'comment'->>'id')::bigint = ANY($3::bigint[])))`,
    [f.position, f.items, f.comments],
  );
}
