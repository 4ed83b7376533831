import type pg from 'pg';
import type { ChainEvent } from '#events/export.ts';
import { toCommentView, type CommentView } from '#projections/catalog/engagement.ts';
import { toView, type CatalogRow } from '#projections/catalog/items.ts';

type Queryable = Pick<pg.Pool, 'query'>;

/** What the keepsake keeps of an item: the guest's view (no email, no note), its comments and its files. */
export interface KeepsakeItem {
  kind: CatalogRow['kind'];
  id: number;
  title: string | null;
  description: string | null;
  tags: string | null;
  content: string | null;
  artistName: string;
  isAnonymous: boolean;
  isFromCanvas: boolean;
  approvedAt: string | null;
  createdAt: string;
  likeCount: number;
  reactions: Partial<Record<string, number>>;
  comments: Array<Pick<CommentView, 'id' | 'authorName' | 'content' | 'createdAt'>>;
  /** blob keys, and the name each has in the archive */
  image?: { key: string; file: string; width: number; height: number; altText: string | null };
  media?: {
    key: string;
    file: string;
    type: 'video' | 'audio';
    mimeType: string;
    poster?: { key: string; file: string };
    /** its WebVTT track, a video's captions or an audio message's transcript (decision 123) */
    captions?: { key: string; file: string };
  };
  /** a drawing's recording, as a script beside the page */
  strokes?: string;
}

const VISIBLE = `c.status = 'approved' AND NOT c.archived`;
const PAGE = 200;

const extension = (key: string) => key.match(/\.[a-z0-9]{1,5}$/i)?.[0] ?? '';

function keepsakeItem(row: CatalogRow, comments: CommentView[]): KeepsakeItem {
  const view = toView(row, { admin: false });
  const base: KeepsakeItem = {
    kind: row.kind,
    id: row.id,
    title: row.title,
    description: row.description,
    tags: row.tags,
    content: row.content,
    artistName: row.artist_name,
    isAnonymous: row.is_anonymous,
    isFromCanvas: row.is_from_canvas === 'true',
    approvedAt: view.approvedAt,
    createdAt: view.createdAt,
    likeCount: view.likeCount,
    reactions: view.reactions,
    comments: comments.map(({ id, authorName, content, createdAt }) => ({ id, authorName, content, createdAt })),
  };
  const picture = row.image?.display ?? row.image?.original;
  if (picture) {
    base.image = {
      key: picture.key,
      file: `files/artwork-${row.id}${extension(picture.key)}`,
      width: picture.width,
      height: picture.height,
      altText: row.alt_text ?? null,
    };
  }
  if (row.media) {
    const file = row.media.playable ?? row.media.file;
    base.media = {
      key: file.key,
      file: `files/media-${row.id}${extension(file.key)}`,
      type: row.media.mediaType,
      mimeType: row.media.playable ? row.media.playable.contentType : row.media.mimeType,
      ...(row.media.poster
        ? {
            poster: {
              key: row.media.poster.key,
              file: `files/media-${row.id}-poster${extension(row.media.poster.key)}`,
            },
          }
        : {}),
      ...(row.media.captions
        ? { captions: { key: row.media.captions.key, file: `files/media-${row.id}-captions.vtt` } }
        : {}),
    };
  }
  return base;
}

/**
 * Every item the gallery shows (approved, not archived), oldest first, a page at a time with its
 * comments: what the keepsake holds, read without holding the gallery in memory.
 */
export async function* keepsakeItems(db: Queryable): AsyncGenerator<KeepsakeItem> {
  let after: [string, string, number] = ['-infinity', '', 0];
  for (;;) {
    const { rows } = await db.query<CatalogRow & { comments: Parameters<typeof toCommentView>[0][] | null }>(
      `SELECT c.*, NULL AS email,
         (SELECT json_agg(m ORDER BY m.created_at, m.id) FROM catalog_comments m
           WHERE m.kind = c.kind AND m.item_id = c.id) AS comments
       FROM catalog_items c
       WHERE ${VISIBLE} AND (c.created_at, c.kind, c.id) > ($1::timestamptz, $2::text, $3::bigint)
       ORDER BY c.created_at, c.kind, c.id LIMIT $4`,
      [...after, PAGE],
    );
    for (const row of rows) {
      const comments = (row.comments ?? []).map((m) => toCommentView({ ...m, created_at: new Date(m.created_at) }));
      yield keepsakeItem(row, comments);
    }
    if (rows.length < PAGE) return;
    const last = rows.at(-1)!;
    after = [last.created_at.toISOString(), last.kind, last.id];
  }
}

/** The streams whose words the keepsake's log may give: the visible items' and their comments'. */
export async function keptStreams(db: Queryable): Promise<Set<string>> {
  const { rows } = await db.query<{ stream: string }>(
    `SELECT c.kind || '-' || c.id AS stream FROM catalog_items c WHERE ${VISIBLE}
     UNION ALL
     SELECT 'comment-' || m.id FROM catalog_comments m
       JOIN catalog_items c ON c.kind = m.kind AND c.id = m.item_id WHERE ${VISIBLE}`,
  );
  return new Set(rows.map((r) => r.stream));
}

/**
 * A log line as the keepsake gives it (decision 091): the words of what the gallery shows, and
 * nothing else, left out the way an erasure leaves them out (value and salt null; the commitment
 * stays, so the line still verifies). Admin notes and the actors' names are always left out.
 */
export function leaveOutPrivate(kept: Set<string>) {
  return (e: ChainEvent): ChainEvent => {
    const keep = kept.has(e.streamId);
    const personal =
      e.personal &&
      Object.fromEntries(Object.entries(e.personal).map(([k, v]) => [k, keep && k !== 'adminNotesRef' ? v : null]));
    const salts =
      e.salts &&
      Object.fromEntries(
        Object.entries(e.salts).map(([k, v]) => [k, keep && k !== 'adminNotesRef' && k !== 'actorRef' ? v : null]),
      );
    return {
      ...e,
      actor: { role: e.actor.role, name: null },
      ...(personal ? { personal } : {}),
      ...(salts ? { salts } : {}),
    };
  };
}
