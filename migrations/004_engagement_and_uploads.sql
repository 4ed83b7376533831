-- Read model: comments and likes of every item (projections/catalog).
CREATE TABLE catalog_comments (
  id            bigint PRIMARY KEY,
  kind          text NOT NULL,
  item_id       bigint NOT NULL,
  author_name   text NOT NULL,
  content       text NOT NULL,
  created_at    timestamptz NOT NULL,
  last_position bigint NOT NULL
);
CREATE INDEX catalog_comments_item ON catalog_comments (kind, item_id, created_at);

CREATE TABLE catalog_likes (
  kind        text NOT NULL,
  item_id     bigint NOT NULL,
  visitor_key text NOT NULL,
  PRIMARY KEY (kind, item_id, visitor_key)
);

-- Staging for uploaded media files until a submission claims them (not part of the log:
-- an unclaimed upload is not a submission, and is removed after a day).
CREATE TABLE media_uploads (
  id               uuid PRIMARY KEY,
  key              text NOT NULL UNIQUE,
  media_type       text NOT NULL CHECK (media_type IN ('video', 'audio')),
  mime_type        text NOT NULL,
  bytes            bigint NOT NULL,
  duration_seconds double precision NOT NULL,
  browser_playable boolean NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  claimed_by       bigint
);
