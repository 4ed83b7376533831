import type { DomainEvent } from '#events/catalog.ts';
import type { Statements } from './statement.ts';

/**
 * An erased person's named items leave the catalog with their comments and likes, and their comments
 * on other items go (the counts follow). Which streams were theirs is kept outside the log
 * (`erased_streams`): the event names no item. A replay never inserts those items at all
 * (`resolvePersonal`), so this only matters to a catalog that had them (docs/decisions/050).
 */
export const subjectStatements: Statements<Extract<DomainEvent['type'], 'SubjectErased'>> = {
  SubjectErased: {
    sql: `WITH r AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(subject_id bigint, at bigint)),
          gone AS (
            SELECT substring(e.stream_id FROM '^([a-z]+)-') AS kind, substring(e.stream_id FROM '-(\\d+)$')::bigint AS id
            FROM erased_streams e JOIN r ON r.subject_id = e.subject_id),
          items AS (SELECT c.kind, c.id FROM catalog_items c JOIN gone g ON g.kind = c.kind AND g.id = c.id),
          comments AS (
            DELETE FROM catalog_comments cc USING gone g
            WHERE g.kind = 'comment' AND cc.id = g.id
              AND NOT EXISTS (SELECT 1 FROM items i WHERE i.kind = cc.kind AND i.id = cc.item_id)
            RETURNING cc.kind, cc.item_id),
          counted AS (
            -- last_position stays: a rebuild never sees these comments, and marks the item where they were posted
            UPDATE catalog_items c SET comment_count = c.comment_count - n.n
            FROM (SELECT kind, item_id, count(*) AS n FROM comments GROUP BY kind, item_id) n
            WHERE c.kind = n.kind AND c.id = n.item_id),
          item_comments AS (DELETE FROM catalog_comments cc USING items i WHERE cc.kind = i.kind AND cc.item_id = i.id),
          item_likes AS (DELETE FROM catalog_likes l USING items i WHERE l.kind = i.kind AND l.item_id = i.id)
        DELETE FROM catalog_items c USING items i WHERE c.kind = i.kind AND c.id = i.id`,
    row: ({ data, position }) => ({ subject_id: data.subjectId, at: position }),
    heard: ({ data }) => [{ what: 'erased', subjectId: data.subjectId }],
  },
};
