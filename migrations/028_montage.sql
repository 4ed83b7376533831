-- Issue 26: the montage of every approved video message (docs/decisions/093-the-montage.md).
-- One row, the latest run: what the job worker made, or is making. Derived output, like a poster, so
-- it is kept beside the log rather than in it: a montage can always be made again from the gallery.
CREATE TABLE montage (
  id          smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  -- the run the row describes; a job for any other run is stale and does nothing
  run_id      uuid NOT NULL,
  state       text NOT NULL CHECK (state IN ('running', 'ready', 'failed')),
  progress    real NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 1),
  -- the media ids joined, in approval order, with the file each was read from: the montage is stale
  -- when the approved videos are no longer these (no names here: they are read from the catalog)
  clips       jsonb NOT NULL,
  duration_seconds real,
  -- the finished film in the blob store; set only once it is whole
  file_key    text,
  bytes       bigint,
  started_at  timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
