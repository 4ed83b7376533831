-- Reaction taps on their way to the log (docs/decisions/035): every API process adds what it counted
-- here every quarter second, and one flush at a time takes all of it and appends one
-- ReactionsCounted per item. Unlogged: a PostgreSQL crash empties it, which only loses taps not yet
-- written (a reaction may be lost), and adding costs no WAL flush.
CREATE UNLOGGED TABLE reaction_tallies (
  kind    text NOT NULL,
  item_id bigint NOT NULL,
  emoji   text NOT NULL,
  taps    integer NOT NULL,
  PRIMARY KEY (kind, item_id, emoji)
);

-- When the last flush took the tallies: the next one waits until a quarter second after it, whichever
-- process runs it, so the room gets at most 4 bursts a second per item. Its row lock makes one flush
-- at a time.
CREATE TABLE reaction_flush (
  id         smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  flushed_at timestamptz NOT NULL DEFAULT 'epoch'
);
INSERT INTO reaction_flush DEFAULT VALUES;
