import type pg from 'pg';

/** An approved video message as the montage joins it: the sender's name as the gallery shows it. */
export interface ApprovedVideo {
  id: number;
  name: string;
  /** the file browsers are served (the media job's), or the upload itself before the job has run */
  file: { key: string; contentType: string };
}

/** Every approved, visible video message, in the order the admin approved them. */
export async function listApprovedVideos(db: Pick<pg.Pool, 'query'>): Promise<ApprovedVideo[]> {
  const { rows } = await db.query<ApprovedVideo>(
    `SELECT id::int AS id, artist_name AS name,
            CASE WHEN jsonb_typeof(media->'playable') = 'object' THEN media->'playable' ELSE media->'file' END AS file
       FROM catalog_items
      WHERE kind = 'media' AND status = 'approved' AND NOT archived AND media->>'mediaType' = 'video'
      ORDER BY approved_at, id`,
  );
  return rows;
}
