import type pg from 'pg';
import type { CommentView, Kind } from '#contract/views.ts';

export type { CommentView };

type Queryable = Pick<pg.Pool, 'query'>;

interface CommentRow {
  id: number;
  kind: Kind;
  item_id: number;
  author_name: string;
  content: string;
  created_at: Date;
  last_position: number;
}

const ITEM_FIELD = { artwork: 'artworkId', story: 'storyId', media: 'mediaId' } as const;

/** A comment as the spec shows it, with its item under the kind's own name (artworkId, storyId, mediaId). */
export function toCommentView(row: CommentRow): CommentView {
  return {
    id: row.id,
    [ITEM_FIELD[row.kind]]: row.item_id,
    itemId: row.item_id,
    kind: row.kind,
    authorName: row.author_name,
    content: row.content,
    createdAt: row.created_at.toISOString(),
  };
}

/** An item's comments, oldest first, with the catalog position they reflect (one statement, one snapshot). */
export async function listComments(
  db: Queryable,
  kind: Kind,
  itemId: number,
): Promise<{ comments: CommentView[]; position: number }> {
  const { rows } = await db.query<Partial<CommentRow> & { at_position: number }>(
    `SELECT here.at_position, c.*
     FROM (SELECT catalog_position() AS at_position) here
     LEFT JOIN catalog_comments c ON c.kind = $1 AND c.item_id = $2
     ORDER BY c.created_at, c.id`,
    [kind, itemId],
  );
  const comments = rows.flatMap((r) => (r.id === null ? [] : [toCommentView(r as CommentRow)]));
  return { comments, position: rows[0]!.at_position };
}

export async function findComment(db: Queryable, commentId: number, kind?: Kind): Promise<CommentView | undefined> {
  const { rows } = await db.query<CommentRow>(
    `SELECT * FROM catalog_comments WHERE id = $1 AND ($2::text IS NULL OR kind = $2)`,
    [commentId, kind ?? null],
  );
  return rows[0] && toCommentView(rows[0]);
}

/**
 * An item's like count and whether a visitor, known by any of `visitorKeys` (decision 050: a
 * pseudonym, or the key before), likes it, with the catalog position both reflect (one statement).
 */
export async function likesOf(
  db: Queryable,
  kind: Kind,
  itemId: number,
  visitorKeys: string[],
): Promise<{ count: number; hasLiked: boolean; position: number }> {
  const { rows } = await db.query<{ at_position: number; like_count: number; has_liked: boolean }>(
    `SELECT catalog_position() AS at_position,
       coalesce((SELECT like_count FROM catalog_items WHERE kind = $1 AND id = $2), 0) AS like_count,
       EXISTS (
         SELECT 1 FROM catalog_likes WHERE kind = $1 AND item_id = $2 AND visitor_key = ANY($3::text[])
       ) AS has_liked`,
    [kind, itemId, visitorKeys],
  );
  const row = rows[0]!;
  return { count: row.like_count, hasLiked: row.has_liked, position: row.at_position };
}
