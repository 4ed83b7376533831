-- Projections fold in chain order, and live messages are an outbox written with the catalog.
-- See docs/decisions/011-live-outbox.md.

-- Where each projection stands in the hash chain. The sealer itself keeps using (transaction_id,
-- position), the commit order it turns into seq; every other projection reads sealed events by seq.
ALTER TABLE projection_checkpoints ADD COLUMN seq bigint NOT NULL DEFAULT 0;
UPDATE projection_checkpoints p SET seq = c.seq FROM event_chain c WHERE c.position = p.position AND p.name <> 'chain';
UPDATE projection_checkpoints p SET seq = coalesce((SELECT max(seq) FROM event_chain), 0) WHERE p.name = 'chain';

-- The chain seq up to which the catalog read model has applied: what gallery pages and live cursors reflect.
CREATE FUNCTION catalog_position() RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT seq FROM projection_checkpoints WHERE name = 'catalog'), 0)
$$;

-- The live messages, written by the catalog projection in the transaction that applies their events,
-- so they commit in seq order, exactly once, with the read-model state they describe. Every API
-- process tails this table by position; a reconnecting client is caught up from it.
CREATE TABLE live_messages (
  position bigint NOT NULL,
  ord      smallint NOT NULL,
  room     text NOT NULL CHECK (room IN ('everyone', 'admins')),
  event    text NOT NULL,
  -- the position of the message before this one that the same audience received (gap detection)
  after    bigint NOT NULL,
  payload  jsonb NOT NULL,
  PRIMARY KEY (position, ord)
);

-- Old messages are pruned; a client that was away for longer refetches instead of catching up.
CREATE TABLE live_state (
  only_row      boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  pruned_through bigint NOT NULL DEFAULT 0,
  last_everyone bigint NOT NULL DEFAULT 0,
  last_any      bigint NOT NULL DEFAULT 0
);
INSERT INTO live_state DEFAULT VALUES;
-- Messages before this migration were never written: clients that come back from before it refetch.
UPDATE live_state SET pruned_through = (SELECT seq FROM projection_checkpoints WHERE name = 'catalog')
WHERE EXISTS (SELECT 1 FROM projection_checkpoints WHERE name = 'catalog');

-- Events a projection could not read (an unknown type or a schema it cannot upcast): set aside,
-- recorded and shown to admins and `events verify`, instead of halting every projection behind them.
CREATE TABLE quarantined_events (
  projection text NOT NULL,
  seq        bigint NOT NULL,
  position   bigint NOT NULL,
  reason     text NOT NULL,
  at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (projection, seq)
);
