import type { DomainEvent } from '#events/catalog.ts';
import { unheard, type Statements } from './statement.ts';

type EngagementType = Extract<
  DomainEvent['type'],
  'ItemLiked' | 'ItemUnliked' | 'CommentPosted' | 'CommentRemoved' | 'ItemViewed'
>;

/**
 * Adds (or, with sign -1, takes away) each item's number of changed rows to a counter column. The
 * latest position per item comes from one grouped pass over the run (a subquery per item was quadratic).
 */
const bump = (column: 'like_count' | 'comment_count' | 'view_count', sign: 1 | -1) =>
  `UPDATE catalog_items c SET ${column} = c.${column} + ${sign} * n.n, last_position = greatest(c.last_position, m.at)
   FROM (SELECT kind, item_id, count(*) AS n FROM changed GROUP BY kind, item_id) n,
     (SELECT kind, id, max(at) AS at FROM r GROUP BY kind, id) m
   WHERE c.kind = n.kind AND c.id = n.item_id AND m.kind = n.kind AND m.id = n.item_id`;

const likeRows = `r AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(kind text, id bigint, visitor text, at bigint))`;

export const engagementStatements: Statements<EngagementType> = {
  ItemViewed: {
    // the view decider lets each visitor count once, so every event here is a new viewer
    sql: `WITH ${likeRows}, changed AS (SELECT r.kind, r.id AS item_id FROM r) ${bump('view_count', 1)}`,
    row: ({ data: d, position }) => ({ kind: d.kind, id: d.itemId, visitor: d.visitorKey, at: position }),
    heard: unheard,
  },
  ItemLiked: {
    sql: `WITH ${likeRows},
          changed AS (
            INSERT INTO catalog_likes (kind, item_id, visitor_key)
            SELECT r.kind, r.id, r.visitor FROM r
            WHERE EXISTS (SELECT 1 FROM catalog_items c WHERE c.kind = r.kind AND c.id = r.id)
            ON CONFLICT DO NOTHING
            RETURNING kind, item_id)
          ${bump('like_count', 1)}`,
    row: ({ data: d, position }) => ({ kind: d.kind, id: d.itemId, visitor: d.visitorKey, at: position }),
    heard: ({ data: d }) => [{ what: 'likes', kind: d.kind, id: d.itemId }],
  },
  ItemUnliked: {
    sql: `WITH ${likeRows},
          changed AS (
            DELETE FROM catalog_likes l USING r
            WHERE l.kind = r.kind AND l.item_id = r.id AND l.visitor_key = r.visitor
            RETURNING l.kind, l.item_id)
          ${bump('like_count', -1)}`,
    row: ({ data: d, position }) => ({ kind: d.kind, id: d.itemId, visitor: d.visitorKey, at: position }),
    heard: ({ data: d }) => [{ what: 'likes', kind: d.kind, id: d.itemId }],
  },
  /**
   * An erased person's comment is not inserted (decision 050), but still marks its item as changed
   * where it was posted, as it did in a catalog that had it before the erasure: the two stay equal.
   */
  CommentPosted: {
    sql: `WITH r AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(comment_id bigint, kind text, id bigint,
              author_name text, content text, created_at timestamptz, at bigint, erased boolean)),
          changed AS (
            INSERT INTO catalog_comments (id, kind, item_id, author_name, content, created_at, last_position)
            SELECT r.comment_id, r.kind, r.id, r.author_name, r.content, r.created_at, r.at FROM r
            WHERE NOT r.erased AND EXISTS (SELECT 1 FROM catalog_items c WHERE c.kind = r.kind AND c.id = r.id)
            RETURNING kind, item_id)
          UPDATE catalog_items c SET comment_count = c.comment_count + coalesce(n.n, 0),
            last_position = greatest(c.last_position, t.at)
          FROM (SELECT kind, id, max(at) AS at FROM r GROUP BY kind, id) t
            LEFT JOIN (SELECT kind, item_id, count(*) AS n FROM changed GROUP BY kind, item_id) n
              ON n.kind = t.kind AND n.item_id = t.id
          WHERE c.kind = t.kind AND c.id = t.id`,
    row: ({ data: d, position }, { erased, text }) => ({
      comment_id: d.commentId,
      kind: d.kind,
      id: d.itemId,
      author_name: erased ? null : (text.authorName ?? ''),
      content: erased ? null : (text.content ?? ''),
      created_at: d.postedAt,
      at: position,
      erased,
    }),
    heard: ({ data: d }) => [{ what: 'comment-added', kind: d.kind, id: d.itemId, commentId: d.commentId }],
  },
  CommentRemoved: {
    sql: `WITH r AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(comment_id bigint, kind text, id bigint, at bigint)),
          changed AS (
            DELETE FROM catalog_comments cc USING r WHERE cc.id = r.comment_id
            RETURNING cc.kind, cc.item_id)
          ${bump('comment_count', -1)}`,
    row: ({ data: d, position }) => ({ comment_id: d.commentId, kind: d.kind, id: d.itemId, at: position }),
    heard: ({ data: d }) => [{ what: 'comment-removed', kind: d.kind, id: d.itemId, commentId: d.commentId }],
  },
};
