-- Issue 29: time travel's snapshots of the catalog, kept in the database by the worker as the log
-- grows (docs/decisions/100-time-travel-snapshots-in-the-database.md). Each version of a catalog row
-- is kept once, with the checkpoints between which it stood: the state at checkpoint K is the rows
-- whose range [from_seq, to_seq) holds K. The size grows with the rows that change, not with the
-- number of checkpoints times the size of the tables (a busy mural's strokes are kept once each).
CREATE TABLE time_travel_rows (
  tbl      text NOT NULL,
  from_seq bigint NOT NULL,
  -- null while the row still stands at the newest checkpoint
  to_seq   bigint,
  -- md5 of the row's jsonb text: how a later checkpoint finds the version it closes
  h        text NOT NULL,
  -- what the row is about ('artwork-12', 'artwork-12/visitor', 'stroke-7', 'show'): a question loads
  -- the likes, comments and strokes of only what the events it folds are about
  -- (projections/timeTravel/workingTables.ts); C collation, so that a prefix is an index range
  scope    text COLLATE "C" NOT NULL,
  row      jsonb NOT NULL
);
CREATE INDEX time_travel_rows_open ON time_travel_rows (tbl, h) WHERE to_seq IS NULL;
CREATE INDEX time_travel_rows_scope ON time_travel_rows (tbl, scope, from_seq);
-- a whole table at a checkpoint: the versions whose range holds it, one index per big table
CREATE INDEX time_travel_rows_items ON time_travel_rows USING gist (int8range(from_seq, to_seq))
  WHERE tbl = 'catalog_items';
CREATE INDEX time_travel_rows_likes ON time_travel_rows USING gist (int8range(from_seq, to_seq))
  WHERE tbl = 'catalog_likes';
CREATE INDEX time_travel_rows_comments ON time_travel_rows USING gist (int8range(from_seq, to_seq))
  WHERE tbl = 'catalog_comments';
CREATE INDEX time_travel_rows_strokes ON time_travel_rows USING gist (int8range(from_seq, to_seq))
  WHERE tbl = 'catalog_mural_strokes';

-- the checkpoints made so far: seqs that are multiples of the keeper's step
CREATE TABLE time_travel_checkpoints (
  seq     bigint PRIMARY KEY,
  made_at timestamptz NOT NULL DEFAULT now()
);

-- Every snapshot resolved names and words as they stood when it was folded: an erasure takes them
-- all, in its own transaction (decision 075), and the worker makes them again from the log.
CREATE FUNCTION time_travel_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE time_travel_rows, time_travel_checkpoints;
  RETURN NULL;
END $$;
CREATE TRIGGER erasure_forgets_time_travel AFTER UPDATE ON erasure_generation
  FOR EACH STATEMENT EXECUTE FUNCTION time_travel_forget();

-- The worker's working tables (temporary, on its own connection) record what each statement of the
-- catalog's fold changed, from the statement's transition tables, into pg_temp.time_travel_changes.
CREATE FUNCTION time_travel_capture() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO pg_temp.time_travel_changes (tbl, sign, row) SELECT TG_TABLE_NAME, -1, to_jsonb(o) FROM old_rows o;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO pg_temp.time_travel_changes (tbl, sign, row) SELECT TG_TABLE_NAME, 1, to_jsonb(n) FROM new_rows n;
  END IF;
  RETURN NULL;
END $$;
