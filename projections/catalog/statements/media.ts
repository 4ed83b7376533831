import type { MediaEvent } from '#events/media/media.ts';
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

const review = reviewSql('media');

export const mediaStatements: Statements<MediaEvent['type']> = {
  MediaSubmitted: {
    sql: `INSERT INTO catalog_items (kind, id, status, title, description, tags, artist_name, email_ref, media,
            created_at, search_text, last_position)
          SELECT 'media', r.id, 'pending', r.title, r.description, r.tags, r.artist_name, r.email_ref, r.media,
            r.created_at, r.search_text, r.at
          FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, title text, description text, tags text, artist_name text,
            email_ref bigint, media jsonb, created_at timestamptz, search_text text, at bigint)`,
    row: ({ data: d, position }, personal) => {
      const columns = submittedColumns(d, personal, position);
      return (
        columns && {
          ...columns,
          id: d.mediaId,
          media: {
            mediaType: d.mediaType,
            mimeType: d.mimeType,
            file: d.file,
            durationSeconds: d.durationSeconds,
            browserPlayable: d.browserPlayable,
          },
        }
      );
    },
    heard: ({ data: d }) => moderated('media', d.mediaId),
  },
  MediaProcessed: {
    sql: `UPDATE catalog_items c SET media = c.media || r.media, last_position = r.at
          FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, media jsonb, at bigint)
          WHERE c.kind = 'media' AND c.id = r.id`,
    row: ({ data: d, position }) => ({
      id: d.mediaId,
      media: { poster: d.poster, playable: d.playable },
      at: position,
    }),
    lastPerItem: true,
    heard: unheard,
  },
  MediaCaptioned: {
    sql: `UPDATE catalog_items c SET media = c.media || jsonb_build_object('captions', r.captions), last_position = r.at
          FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, captions jsonb, at bigint)
          WHERE c.kind = 'media' AND c.id = r.id`,
    row: ({ data: d, position }) => ({ id: d.mediaId, captions: d.captions, at: position }),
    lastPerItem: true,
    heard: ({ data: d }) => [{ what: 'captions', kind: 'media', id: d.mediaId }],
  },
  MediaApproved: {
    sql: review.approved,
    row: ({ data: d, position }, { text }) => ({
      id: d.mediaId,
      notes: text.adminNotes ?? null,
      at_time: d.approvedAt,
      at: position,
    }),
    lastPerItem: true,
    heard: ({ data: d }) => [...moderated('media', d.mediaId, 'added'), toSender('media', d.mediaId, 'approved')],
  },
  MediaRejected: {
    sql: review.rejected,
    row: ({ data: d, position }, { text }) => ({ id: d.mediaId, notes: text.adminNotes ?? null, at: position }),
    lastPerItem: true,
    heard: ({ data: d }) => [...moderated('media', d.mediaId, 'removed'), toSender('media', d.mediaId, 'rejected')],
  },
  MediaDeleted: {
    sql: deleteSql('media'),
    row: ({ data: d }) => ({ id: d.mediaId }),
    lastPerItem: true,
    heard: ({ data: d }) => [...moderated('media', d.mediaId, 'removed'), forgotten('media', d.mediaId)],
  },
  MediaEdited: {
    sql: editedWorkSql('media'),
    row: ({ data: d, position }, personal) => editedWorkColumns(d.mediaId, personal, position),
    lastPerItem: true,
    heard: ({ data: d }) => moderated('media', d.mediaId),
  },
  MediaWithdrawn: {
    sql: deleteSql('media'),
    row: ({ data: d }) => ({ id: d.mediaId }),
    lastPerItem: true,
    heard: ({ data: d }) => [
      ...moderated('media', d.mediaId, 'removed'),
      toSender('media', d.mediaId, 'withdrawn'),
      forgotten('media', d.mediaId),
    ],
  },
};
