-- The show (CONTRACT §7), folded by the catalog projection from the `show` stream: one row, the
-- presenter's current state. Reaction totals per item live on the item (docs/decisions/035).
CREATE TABLE catalog_show (
  id            smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  state         text NOT NULL DEFAULT 'idle' CHECK (state IN ('idle', 'running', 'paused')),
  items         jsonb NOT NULL DEFAULT '[]',
  idx           integer NOT NULL DEFAULT 0,
  last_position bigint NOT NULL DEFAULT 0
);

ALTER TABLE catalog_items ADD COLUMN reactions jsonb NOT NULL DEFAULT '{}';
