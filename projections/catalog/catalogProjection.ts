import type pg from 'pg';
import type { ArtworkEvent } from '#events/artworks/artwork.ts';
import type { RecordedEvent } from '#events/store.ts';
import type { Projection } from '../projection.ts';

const searchText = (...parts: Array<string | null | undefined>) =>
  parts
    .filter((p): p is string => !!p)
    .join('\n')
    .toLowerCase();

async function applyArtwork(event: RecordedEvent<ArtworkEvent>, db: pg.PoolClient) {
  const at = event.position;
  switch (event.type) {
    case 'ArtworkSubmitted': {
      const d = event.data;
      await db.query(
        `INSERT INTO catalog_items (kind, id, status, title, description, tags, artist_name, email_ref,
           is_from_canvas, image, created_at, search_text, last_position)
         VALUES ('artwork', $1, 'pending', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          d.artworkId,
          d.title,
          d.description,
          d.tags,
          d.artistName,
          d.emailRef,
          String(d.isFromCanvas),
          JSON.stringify({ original: d.image }),
          d.submittedAt,
          searchText(d.title, d.description, d.tags, d.artistName),
          at,
        ],
      );
      return;
    }
    case 'ArtworkRenditionsMade': {
      const { artworkId, display, thumbnail } = event.data;
      await db.query(
        `UPDATE catalog_items SET image = image || $2::jsonb, last_position = $3 WHERE kind = 'artwork' AND id = $1`,
        [artworkId, JSON.stringify({ display, thumbnail }), at],
      );
      return;
    }
    case 'ArtworkApproved': {
      const { artworkId, adminNotes, approvedAt } = event.data;
      await db.query(
        `UPDATE catalog_items SET status = 'approved', admin_notes = $2, approved_at = $3, last_position = $4
         WHERE kind = 'artwork' AND id = $1`,
        [artworkId, adminNotes, approvedAt, at],
      );
      return;
    }
    case 'ArtworkRejected': {
      const { artworkId, adminNotes } = event.data;
      await db.query(
        `UPDATE catalog_items SET status = 'rejected', admin_notes = $2, approved_at = NULL, last_position = $3
         WHERE kind = 'artwork' AND id = $1`,
        [artworkId, adminNotes, at],
      );
      return;
    }
    case 'ArtworkArchived':
    case 'ArtworkUnarchived': {
      const archived = event.type === 'ArtworkArchived';
      const when = event.type === 'ArtworkArchived' ? event.data.archivedAt : null;
      await db.query(
        `UPDATE catalog_items SET archived = $2, archived_at = $3, last_position = $4 WHERE kind = 'artwork' AND id = $1`,
        [event.data.artworkId, archived, when, at],
      );
      return;
    }
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/** Every submitted item with its moderation state and counters: gallery, details and admin lists read it. */
export const catalogProjection: Projection = {
  name: 'catalog',
  canHandle: [
    'ArtworkSubmitted',
    'ArtworkRenditionsMade',
    'ArtworkApproved',
    'ArtworkRejected',
    'ArtworkArchived',
    'ArtworkUnarchived',
  ],
  tables: ['catalog_items'],
  rebuildable: true,
  async apply(events, db) {
    for (const event of events) await applyArtwork(event as RecordedEvent<ArtworkEvent>, db);
  },
};
