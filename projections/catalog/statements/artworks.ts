import type { ArtworkEvent } from '#events/artworks/artwork.ts';
import {
  deleteSql,
  editedWorkColumns,
  editedWorkSql,
  forgotten,
  moderated,
  reviewSql,
  submittedColumns,
  toSender,
  unheard,
  type Statements,
} from './statement.ts';

const review = reviewSql('artwork');

export const artworkStatements: Statements<ArtworkEvent['type']> = {
  ArtworkSubmitted: {
    sql: `INSERT INTO catalog_items (kind, id, status, title, description, tags, artist_name, email_ref,
            is_from_canvas, image, created_at, search_text, last_position, alt_text)
          SELECT 'artwork', r.id, 'pending', r.title, r.description, r.tags, r.artist_name, r.email_ref,
            r.is_from_canvas, r.image, r.created_at, r.search_text, r.at, r.alt_text
          FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, title text, description text, tags text, artist_name text,
            email_ref bigint, is_from_canvas text, image jsonb, created_at timestamptz, search_text text, at bigint,
            alt_text text)`,
    row: ({ data: d, position }, personal) => {
      const columns = submittedColumns(d, personal, position);
      return (
        columns && {
          ...columns,
          id: d.artworkId,
          is_from_canvas: String(d.isFromCanvas),
          image: { original: d.image },
          alt_text: personal.text.altText ?? null,
        }
      );
    },
    heard: ({ data: d }) => moderated('artwork', d.artworkId),
  },
  ArtworkRenditionsMade: {
    sql: `UPDATE catalog_items c SET image = c.image || r.image, last_position = r.at
          FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, image jsonb, at bigint)
          WHERE c.kind = 'artwork' AND c.id = r.id`,
    row: ({ data: d, position }) => ({
      id: d.artworkId,
      image: { display: d.display, thumbnail: d.thumbnail },
      at: position,
    }),
    lastPerItem: true,
    heard: unheard,
  },
  ArtworkApproved: {
    sql: review.approved,
    row: ({ data: d, position }, { text }) => ({
      id: d.artworkId,
      notes: text.adminNotes ?? null,
      at_time: d.approvedAt,
      at: position,
    }),
    lastPerItem: true,
    heard: ({ data: d }) => [
      ...moderated('artwork', d.artworkId, 'added'),
      toSender('artwork', d.artworkId, 'approved'),
    ],
  },
  ArtworkRejected: {
    sql: review.rejected,
    row: ({ data: d, position }, { text }) => ({ id: d.artworkId, notes: text.adminNotes ?? null, at: position }),
    lastPerItem: true,
    heard: ({ data: d }) => [
      ...moderated('artwork', d.artworkId, 'removed'),
      toSender('artwork', d.artworkId, 'rejected'),
    ],
  },
  ArtworkArchived: {
    sql: `UPDATE catalog_items c SET archived = true, archived_at = r.archived_at, last_position = r.at
          FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, archived_at timestamptz, at bigint)
          WHERE c.kind = 'artwork' AND c.id = r.id`,
    row: ({ data: d, position }) => ({ id: d.artworkId, archived_at: d.archivedAt, at: position }),
    lastPerItem: true,
    heard: ({ data: d }) => moderated('artwork', d.artworkId, 'removed'),
  },
  ArtworkUnarchived: {
    sql: `UPDATE catalog_items c SET archived = false, archived_at = NULL, last_position = r.at
          FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, at bigint)
          WHERE c.kind = 'artwork' AND c.id = r.id`,
    row: ({ data: d, position }) => ({ id: d.artworkId, at: position }),
    lastPerItem: true,
    heard: ({ data: d }) => moderated('artwork', d.artworkId, 'added'),
  },
  ArtworkDeleted: {
    sql: deleteSql('artwork'),
    row: ({ data: d }) => ({ id: d.artworkId }),
    lastPerItem: true,
    heard: ({ data: d }) => [...moderated('artwork', d.artworkId, 'removed'), forgotten('artwork', d.artworkId)],
  },
  ArtworkEdited: {
    sql: editedWorkSql('artwork'),
    row: ({ data: d, position }, personal) => editedWorkColumns(d.artworkId, personal, position),
    lastPerItem: true,
    heard: ({ data: d }) => moderated('artwork', d.artworkId),
  },
  ArtworkWithdrawn: {
    sql: deleteSql('artwork'),
    row: ({ data: d }) => ({ id: d.artworkId }),
    lastPerItem: true,
    heard: ({ data: d }) => [
      ...moderated('artwork', d.artworkId, 'removed'),
      toSender('artwork', d.artworkId, 'withdrawn'),
      forgotten('artwork', d.artworkId),
    ],
  },
};
