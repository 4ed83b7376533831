-- The mural (CONTRACT §8), folded by the catalog projection from the `mural` stream (its state) and
-- one `mural-stroke-N` stream per stroke (docs/decisions/038). Strokes are painted in chain order (seq).
CREATE SEQUENCE mural_stroke_ids;

CREATE TABLE catalog_mural (
  id            smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  state         text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'locked', 'frozen')),
  artwork_id    bigint,
  last_position bigint NOT NULL DEFAULT 0
);

CREATE TABLE catalog_mural_strokes (
  id         bigint PRIMARY KEY,
  visitor_id text NOT NULL,
  tool       text NOT NULL,
  color      text NOT NULL,
  size       real NOT NULL,
  opacity    real NOT NULL,
  points     jsonb NOT NULL,
  -- the chain seq it was drawn at: the painting order, and the live cursor
  seq        bigint NOT NULL,
  drawn_at   timestamptz NOT NULL
);
CREATE INDEX catalog_mural_strokes_seq ON catalog_mural_strokes (seq);
