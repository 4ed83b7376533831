-- Read model: one row per submitted item of any kind (projections/catalog).
CREATE TABLE catalog_items (
  kind          text NOT NULL CHECK (kind IN ('artwork', 'story', 'media')),
  id            bigint NOT NULL,
  status        text NOT NULL,
  archived      boolean NOT NULL DEFAULT false,
  title         text,
  description   text,
  tags          text,
  content       text,
  artist_name   text NOT NULL,
  is_anonymous  boolean NOT NULL DEFAULT false,
  email_ref     bigint,
  is_from_canvas text,
  image         jsonb,
  media         jsonb,
  admin_notes   text,
  created_at    timestamptz NOT NULL,
  approved_at   timestamptz,
  archived_at   timestamptz,
  like_count    integer NOT NULL DEFAULT 0,
  comment_count integer NOT NULL DEFAULT 0,
  search_text   text NOT NULL DEFAULT '',
  last_position bigint NOT NULL,
  PRIMARY KEY (kind, id)
);

CREATE INDEX catalog_visible ON catalog_items (kind, id) WHERE status = 'approved' AND NOT archived;
CREATE INDEX catalog_pending ON catalog_items (kind, created_at) WHERE status = 'pending';
