-- Issue 21: the log's order survives a logical restore, and the chain covers the words.
-- See docs/decisions/076-the-log-order-survives-a-restore.md and 077-the-chain-covers-the-words.md.

-- 1. Eras. The log is ordered by the transaction ids of the cluster that wrote it; a logical restore
-- (pg_dump/pg_restore) carries them into a cluster whose ids may be far behind. Each such restore
-- opens a new era, and the log is ordered by (era, transaction_id, position): every event of an
-- earlier era comes before any of a later one, whatever the ids.
CREATE TABLE log_eras (
  era        integer PRIMARY KEY,
  began_at   timestamptz NOT NULL DEFAULT now(),
  -- the sealer's transaction id when the era began, which this cluster's ids had not reached
  after_transaction_id xid8
);
INSERT INTO log_eras (era) VALUES (0);

ALTER TABLE events ADD COLUMN era integer NOT NULL DEFAULT 0;
ALTER TABLE projection_checkpoints ADD COLUMN era integer NOT NULL DEFAULT 0;
CREATE INDEX events_commit_order ON events (era, transaction_id, position);
DROP INDEX events_global_order;

-- The era new events belong to. The sealer's checkpoint holds the id of a transaction that ended
-- before every running one, so in the cluster that sealed it every new id is above it; an id at or
-- below it means the log came from another, older cluster: a new era begins.
CREATE FUNCTION log_era() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  current integer;
  sealed record;
BEGIN
  SELECT max(era) INTO current FROM log_eras;
  SELECT era, transaction_id INTO sealed FROM projection_checkpoints WHERE name = 'chain';
  IF FOUND AND sealed.era = current AND pg_current_xact_id() <= sealed.transaction_id THEN
    INSERT INTO log_eras (era, after_transaction_id) VALUES (current + 1, sealed.transaction_id)
    ON CONFLICT DO NOTHING;
    SELECT max(era) INTO current FROM log_eras;
  END IF;
  RETURN current;
END $$;

CREATE OR REPLACE FUNCTION events_force_transaction_id() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.transaction_id := pg_current_xact_id();
  NEW.era := log_era();
  RETURN NEW;
END $$;

-- 2. Commitments. Each personal value carries a random salt and SHA-256(salt || value), computed
-- here for every writer. New chain links cover the commitments of the values an event refers to,
-- so a value edited in place no longer matches; erasing drops value and salt and keeps the
-- commitment, which verifies as erased.
ALTER TABLE personal_data ADD COLUMN salt text;
ALTER TABLE personal_data ADD COLUMN commitment text;
UPDATE personal_data SET salt = replace(gen_random_uuid()::text, '-', '') WHERE value IS NOT NULL;
UPDATE personal_data SET commitment = encode(sha256(convert_to(salt || value, 'UTF8')), 'hex') WHERE value IS NOT NULL;

CREATE FUNCTION personal_data_commitment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.value IS NOT NULL AND NEW.commitment IS NULL THEN
      NEW.salt := replace(gen_random_uuid()::text, '-', '');
      NEW.commitment := encode(sha256(convert_to(NEW.salt || NEW.value, 'UTF8')), 'hex');
    END IF;
    RETURN NEW;
  END IF;
  -- a commitment never changes; the salt goes when the value is erased
  NEW.commitment := OLD.commitment;
  NEW.salt := CASE WHEN NEW.value IS NULL THEN NULL ELSE OLD.salt END;
  RETURN NEW;
END $$;

CREATE TRIGGER personal_data_commitment
  BEFORE INSERT OR UPDATE ON personal_data
  FOR EACH ROW EXECUTE FUNCTION personal_data_commitment();

-- 3. Append tags. With LOG_HMAC_KEY, the writer tags each event with an HMAC under the key; the
-- sealer seals no untagged or badly tagged event once the chain is keyed, so a row inserted by
-- hand is never sealed, and verify names it.
ALTER TABLE events ADD COLUMN tag text;
-- a tag is made once, with a random nonce: a copy of a tagged row is a replay
CREATE UNIQUE INDEX events_tag ON events (tag) WHERE tag IS NOT NULL;
