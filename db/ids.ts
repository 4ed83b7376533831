import type pg from 'pg';

/** The sequences that number new items and comments (migrations): an id is taken before its stream's first event. */
export type IdSequence = 'artwork_ids' | 'story_ids' | 'media_ids' | 'comment_ids';

/** The next id of `sequence`. Ids are never reused: one taken by a request that then fails stays a gap. */
export async function nextId(pool: Pick<pg.Pool, 'query'>, sequence: IdSequence): Promise<number> {
  const { rows } = await pool.query<{ id: number }>(`SELECT nextval('${sequence}')::int AS id`);
  return rows[0]!.id;
}
