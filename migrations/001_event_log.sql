-- The append-only event log, ordered for readers by (transaction_id, position).
-- See docs/decisions/001-global-order-and-hash-chain.md.

CREATE TABLE events (
  position       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  stream_id      text NOT NULL,
  stream_version bigint NOT NULL,
  type           text NOT NULL,
  schema_version integer NOT NULL,
  data           jsonb NOT NULL,
  metadata       jsonb NOT NULL,
  recorded_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
  -- also the optimistic lock: two writers expecting one version cannot both add the next
  UNIQUE (stream_id, stream_version)
);

CREATE INDEX events_global_order ON events (transaction_id, position);

-- The log is never changed in place.
CREATE FUNCTION events_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the event log is append-only (% refused)', TG_OP;
END $$;

CREATE TRIGGER events_append_only
  BEFORE UPDATE OR DELETE ON events
  FOR EACH ROW EXECUTE FUNCTION events_are_append_only();

CREATE TRIGGER events_no_truncate
  BEFORE TRUNCATE ON events
  FOR EACH STATEMENT EXECUTE FUNCTION events_are_append_only();

-- The text every hash is computed over; one definition for the sealer and for verify.
CREATE FUNCTION event_canonical_text(e events) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT concat_ws(E'\n',
    e.position::text, e.stream_id, e.stream_version::text, e.type, e.schema_version::text,
    e.data::text, e.metadata::text,
    to_char(e.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))
$$;

-- The hash chain, sealed in global order shortly after commit. seq is dense and only grows in
-- commit order, so it is also the cursor that live clients resume from.
CREATE TABLE event_chain (
  seq       bigint PRIMARY KEY,
  position  bigint NOT NULL UNIQUE,
  prev_hash text NOT NULL,
  hash      text NOT NULL
);

CREATE TABLE projection_checkpoints (
  name           text PRIMARY KEY,
  transaction_id xid8 NOT NULL DEFAULT '0',
  position       bigint NOT NULL DEFAULT 0,
  updated_at     timestamptz NOT NULL DEFAULT now()
);

-- Personal data lives outside the log so it can be erased without breaking the chain.
CREATE TABLE personal_data (
  id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind      text NOT NULL CHECK (kind IN ('email', 'ip')),
  value     text,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  erased_at timestamptz
);
CREATE INDEX personal_data_lookup ON personal_data (kind, value) WHERE erased_at IS NULL;

CREATE SEQUENCE artwork_ids;
CREATE SEQUENCE story_ids;
CREATE SEQUENCE media_ids;
CREATE SEQUENCE comment_ids;

CREATE TABLE sessions (
  token_hash text PRIMARY KEY,
  role       text NOT NULL CHECK (role IN ('guest', 'admin', 'auditor')),
  visitor_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_expiry ON sessions (expires_at);
