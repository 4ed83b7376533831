-- Forgetting without losing (issue 21, docs/decisions/073). A delete or an erasure takes out of the
-- live outbox only the messages that name what it forgot (the items, the comments), not everything
-- before it; each such forgetting is recorded here, so that every API process's tail forgets the
-- same messages from its memory. Pruned with the outbox.
CREATE TABLE live_forgotten (
  position bigint PRIMARY KEY,
  -- 'artwork-12', 'story-3': every message naming one of these items goes
  items    text[] NOT NULL,
  -- comment ids whose `comments:added` goes
  comments bigint[] NOT NULL
);

-- A value blanked (an erasure, a delete, an import restoring one as erased) or a stream recorded as
-- erased moves this generation on: time travel's snapshots built before it hold words that are gone,
-- and are dropped (docs/decisions/074). Transactional, so a reader never sees the new generation
-- before the blanking it stands for.
CREATE TABLE erasure_generation (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  n        bigint NOT NULL DEFAULT 0
);
INSERT INTO erasure_generation DEFAULT VALUES;

CREATE FUNCTION erasure_generation_advance() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE erasure_generation SET n = n + 1;
  RETURN NULL;
END $$;

-- per blanked row, so that other updates of personal_data never wait on this one row
CREATE TRIGGER personal_data_blanked AFTER UPDATE OF value ON personal_data
  FOR EACH ROW WHEN (OLD.value IS NOT NULL AND NEW.value IS NULL) EXECUTE FUNCTION erasure_generation_advance();
CREATE TRIGGER erased_streams_recorded AFTER INSERT ON erased_streams
  FOR EACH STATEMENT EXECUTE FUNCTION erasure_generation_advance();
