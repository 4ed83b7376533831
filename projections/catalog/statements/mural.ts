import type { DomainEvent } from '#events/catalog.ts';
import type { Change, Statements } from './statement.ts';

/** Screens that show the mural hear its state (`mural:state`). */
const muralState = (): Change[] => [{ what: 'mural-state' }];

type MuralType = Extract<
  DomainEvent['type'],
  'MuralStrokeDrawn' | 'MuralStrokeErased' | 'MuralLocked' | 'MuralUnlocked' | 'MuralFrozen'
>;

/** Sets the one mural row (made on first use: a rebuild starts with none). */
const setState = (state: 'open' | 'locked' | 'frozen') =>
  `INSERT INTO catalog_mural AS m (id, state, artwork_id, last_position)
   SELECT 1, '${state}', r.artwork_id, r.at FROM jsonb_to_recordset($1::jsonb) AS r(id int, artwork_id bigint, at bigint)
   ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state,
     artwork_id = coalesce(EXCLUDED.artwork_id, m.artwork_id), last_position = EXCLUDED.last_position`;

export const muralStatements: Statements<MuralType> = {
  MuralStrokeDrawn: {
    // strokes name their author by a public id, never the visitor id (decision 068)
    sql: `INSERT INTO catalog_mural_strokes (id, author_id, tool, color, size, opacity, points, seq, drawn_at)
          SELECT r.id, public_author_id(r.visitor_id), r.tool, r.color, r.size, r.opacity, r.points, r.seq, r.drawn_at
          FROM jsonb_to_recordset($1::jsonb)
            AS r(id bigint, visitor_id text, tool text, color text, size real, opacity real, points jsonb, seq bigint, drawn_at timestamptz)
          ON CONFLICT (id) DO NOTHING`,
    row: ({ data: d, seq }) => ({
      id: d.strokeId,
      visitor_id: d.visitorId,
      tool: d.tool,
      color: d.color,
      size: d.size,
      opacity: d.opacity,
      points: d.points,
      seq,
      drawn_at: d.drawnAt,
    }),
    heard: ({ data: d }) => [{ what: 'mural-stroke-added', id: d.strokeId }],
  },
  MuralStrokeErased: {
    sql: `DELETE FROM catalog_mural_strokes s USING jsonb_to_recordset($1::jsonb) AS r(id bigint) WHERE s.id = r.id`,
    row: ({ data: d }) => ({ id: d.strokeId }),
    heard: ({ data: d }) => [{ what: 'mural-stroke-removed', id: d.strokeId }],
  },
  MuralLocked: {
    sql: setState('locked'),
    row: ({ position }) => ({ id: 1, at: position }),
    lastPerItem: true,
    heard: muralState,
  },
  MuralUnlocked: {
    sql: setState('open'),
    row: ({ position }) => ({ id: 1, at: position }),
    lastPerItem: true,
    heard: muralState,
  },
  MuralFrozen: {
    sql: setState('frozen'),
    row: ({ data, position }) => ({ id: 1, artwork_id: data.artworkId, at: position }),
    lastPerItem: true,
    heard: muralState,
  },
};
