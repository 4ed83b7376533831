-- The hash chain covers its own order and is computed over a documented canonical form (RFC 8785).
-- See docs/canonical-form.md and docs/decisions/030-chain-canonical-form-and-anchors.md.

-- How each link was computed: 1 the first scheme (PostgreSQL text, kept to verify old links),
-- 2 SHA-256 over the canonical record, 3 HMAC-SHA256 over it under LOG_HMAC_KEY. Links sealed
-- before this migration are scheme 1; the log itself is never rewritten.
ALTER TABLE event_chain ADD COLUMN scheme smallint NOT NULL DEFAULT 1 CHECK (scheme IN (1, 2, 3));
ALTER TABLE event_chain ALTER COLUMN scheme DROP DEFAULT;

-- The chain is append-only like the log.
CREATE FUNCTION event_chain_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the hash chain is append-only (% refused)', TG_OP;
END $$;

CREATE TRIGGER event_chain_append_only
  BEFORE UPDATE OR DELETE ON event_chain
  FOR EACH ROW EXECUTE FUNCTION event_chain_is_append_only();

CREATE TRIGGER event_chain_no_truncate
  BEFORE TRUNCATE ON event_chain
  FOR EACH STATEMENT EXECUTE FUNCTION event_chain_is_append_only();

-- The commit order is the database's to say: whatever an INSERT supplies, transaction_id is the
-- inserting transaction's own id, so no event can be parked in the future, out of the sealer's reach.
CREATE FUNCTION events_force_transaction_id() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.transaction_id := pg_current_xact_id();
  RETURN NEW;
END $$;

CREATE TRIGGER events_transaction_id
  BEFORE INSERT ON events
  FOR EACH ROW EXECUTE FUNCTION events_force_transaction_id();
