import type pg from 'pg';
import type { Kind } from './items.ts';

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
export function toCommentView(row: CommentRow) {
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
export type CommentView = ReturnType<typeof toCommentView>;

export async function listComments(db: Queryable, kind: Kind, itemId: number): Promise<CommentView[]> {
  const { rows } = await db.query<CommentRow>(
    `SELECT * FROM catalog_comments WHERE kind = $1 AND item_id = $2 ORDER BY created_at, id`,
    [kind, itemId],
  );
  return rows.map(toCommentView);
}

export async function findComment(db: Queryable, commentId: number, kind?: Kind): Promise<CommentView | undefined> {
  const { rows } = await db.query<CommentRow>(
    `SELECT * FROM catalog_comments WHERE id = $1 AND ($2::text IS NULL OR kind = $2)`,
    [commentId, kind ?? null],
  );
  return rows[0] && toCommentView(rows[0]);
}

/** Whether a visitor, known by any of `visitorKeys` (decision 050: a pseudonym, or the key before), likes an item. */
export async function hasLiked(db: Queryable, kind: Kind, itemId: number, visitorKeys: string[]): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM catalog_likes WHERE kind = $1 AND item_id = $2 AND visitor_key = ANY($3::text[]) LIMIT 1`,
    [kind, itemId, visitorKeys],
  );
  return rows.length > 0;
}
