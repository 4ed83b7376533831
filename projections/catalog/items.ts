import type pg from 'pg';
import type { ArtworkView, ItemView, Kind, MediaView, StoryView } from '#contract/views.ts';

export type { ItemView, Kind };
type Queryable = Pick<pg.Pool, 'query'>;

interface ImageRef {
  key: string;
  contentType: string;
  width: number;
  height: number;
}

export interface CatalogRow {
  kind: Kind;
  id: number;
  status: string;
  archived: boolean;
  title: string | null;
  description: string | null;
  tags: string | null;
  content: string | null;
  artist_name: string;
  is_anonymous: boolean;
  is_from_canvas: string | null;
  alt_text: string | null;
  image: { original: ImageRef; display?: ImageRef; thumbnail?: ImageRef } | null;
  media: MediaInfo | null;
  admin_notes: string | null;
  created_at: Date;
  approved_at: Date | null;
  archived_at: Date | null;
  like_count: number;
  comment_count: number;
  view_count: number;
  /** reaction totals per emoji (the show, migration 013) */
  reactions: Partial<Record<string, number>>;
  last_position: number;
  email: string | null;
}

interface FileRef {
  key: string;
  contentType: string;
  bytes: number;
}

export interface MediaInfo {
  mediaType: 'video' | 'audio';
  mimeType: string;
  file: FileRef;
  durationSeconds: number;
  browserPlayable: boolean;
  poster?: FileRef | null;
  playable?: FileRef | null;
  /** a WebVTT caption track (decision 123) */
  captions?: FileRef | null;
}

export interface Viewer {
  admin: boolean;
}

const ROW_FROM = `c.*, CASE WHEN $1::boolean THEN p.value END AS email
  FROM catalog_items c LEFT JOIN personal_data p ON p.id = c.email_ref`;
const SELECT_ROW = `SELECT ${ROW_FROM}`;

const VISIBLE = `c.status = 'approved' AND NOT c.archived`;

/** The item as the API shows it; email and notes only to admins. */
export function toView(row: CatalogRow, viewer: Viewer): ItemView {
  const base = {
    kind: row.kind,
    id: row.id,
    title: row.title,
    description: row.description,
    tags: row.tags,
    artistName: row.artist_name,
    status: row.status,
    archived: row.archived,
    createdAt: row.created_at.toISOString(),
    approvedAt: row.approved_at?.toISOString() ?? null,
    archivedAt: row.archived_at?.toISOString() ?? null,
    likeCount: row.like_count,
    commentCount: row.comment_count,
    viewCount: row.view_count,
    reactions: row.reactions ?? {},
  };
  const admin = viewer.admin ? { email: row.email, adminNotes: row.admin_notes } : {};
  if (row.kind === 'artwork') {
    const url = (variant: string) => `/api/artworks/${row.id}/image/${variant}`;
    return {
      ...base,
      kind: 'artwork',
      isFromCanvas: row.is_from_canvas ?? 'false',
      imageData: url('display'),
      altText: row.alt_text ?? null,
      thumbnailUrl: url('thumbnail'),
      originalUrl: url('original'),
      ...admin,
    } satisfies ArtworkView;
  }
  if (row.kind === 'story') {
    // a story always has its content (events/stories/story.ts)
    const story = { content: row.content!, authorName: row.artist_name, isAnonymous: row.is_anonymous };
    return { ...base, kind: 'story', ...story, ...admin } satisfies StoryView;
  }
  const media = row.media!;
  const stream = `/api/media/${row.id}/stream`;
  return {
    ...base,
    kind: 'media',
    mediaType: media.mediaType,
    mimeType: media.playable ? media.playable.contentType : media.mimeType,
    // the stored path (spec §3) is served by the stream route too: files are never public
    mediaData: stream,
    streamUrl: stream,
    thumbnailUrl: media.mediaType === 'video' ? `/api/media/${row.id}/thumbnail` : null,
    durationSeconds: media.durationSeconds,
    processing: media.poster === undefined,
    captionsUrl: media.captions ? `/api/media/${row.id}/captions` : null,
    ...admin,
  } satisfies MediaView;
}

/** One item (`$2` kind, `$3` id); guests (`$1` false) see it only when approved and not archived. */
const ONE_ITEM = `WHERE c.kind = $2 AND c.id = $3 AND ($1::boolean OR (${VISIBLE}))`;

/** One item; guests see it only when approved and not archived. */
export async function findItem(db: Queryable, kind: Kind, id: number, viewer: Viewer): Promise<CatalogRow | undefined> {
  const { rows } = await db.query<CatalogRow>(`${SELECT_ROW} ${ONE_ITEM}`, [viewer.admin, kind, id]);
  return rows[0];
}

/**
 * One item as `findItem` finds it, with the catalog position it reflects: read in the same statement
 * (one snapshot), so live messages with a higher position are exactly those it does not show yet.
 * Only answers that live messages patch need the position; every other lookup uses `findItem`.
 */
export async function findItemAt(
  db: Queryable,
  kind: Kind,
  id: number,
  viewer: Viewer,
): Promise<{ row: CatalogRow; position: number } | undefined> {
  const { rows } = await db.query<CatalogRow & { at_position: number }>(
    `SELECT catalog_position() AS at_position, ${ROW_FROM} ${ONE_ITEM}`,
    [viewer.admin, kind, id],
  );
  if (!rows[0]) return undefined;
  const { at_position: position, ...row } = rows[0];
  return { row, position };
}

export async function listVisible(db: Queryable, kind: Kind, viewer: Viewer): Promise<CatalogRow[]> {
  const { rows } = await db.query<CatalogRow>(
    `${SELECT_ROW} WHERE c.kind = $2 AND ($1::boolean OR (${VISIBLE})) ORDER BY c.created_at DESC, c.id DESC`,
    [viewer.admin, kind],
  );
  return rows;
}

export async function listPending(db: Queryable, kind: Kind): Promise<CatalogRow[]> {
  const { rows } = await db.query<CatalogRow>(
    `${SELECT_ROW} WHERE c.kind = $2 AND c.status = 'pending' ORDER BY c.created_at, c.id`,
    [true, kind],
  );
  return rows;
}

export async function listArchived(db: Queryable, kind: Kind): Promise<CatalogRow[]> {
  const { rows } = await db.query<CatalogRow>(
    `${SELECT_ROW} WHERE c.kind = $2 AND c.archived ORDER BY c.archived_at DESC, c.id DESC`,
    [true, kind],
  );
  return rows;
}
