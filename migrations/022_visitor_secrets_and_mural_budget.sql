-- A browser's identity is a secret (CONTRACT §9, decision 068). The tg_visitor cookie now holds a
-- random secret and the server keeps only its SHA-256; the visitor id (in sessions, subjects, the
-- mural's and older events) is no longer a credential. Visitors from before have no secret: their
-- old cookie (their visitor id, which GET /api/mural used to give everyone) is honoured only beside
-- a live session of that same visitor, which then receives a secret.
ALTER TABLE visitors ADD COLUMN secret_hash bytea UNIQUE;

-- Public author ids: what strokes name their author by. HMAC-SHA256 of the visitor id under a key
-- that never leaves the database (an export does not carry it), kept as its inner and outer pads so
-- plain SQL computes it: the catalog folds it into the mural's read model, a rebuild the same.
CREATE TABLE author_key (
  only_one  boolean PRIMARY KEY DEFAULT true CHECK (only_one),
  inner_pad bytea NOT NULL,
  outer_pad bytea NOT NULL
);
DO $$
DECLARE
  k bytea := decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '') || repeat('00', 32), 'hex');
  i bytea := k;
  o bytea := k;
BEGIN
  FOR n IN 0..63 LOOP
    i := set_byte(i, n, get_byte(k, n) # 54);
    o := set_byte(o, n, get_byte(k, n) # 92);
  END LOOP;
  INSERT INTO author_key (inner_pad, outer_pad) VALUES (i, o);
END $$;

CREATE FUNCTION public_author_id(visitor_id text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT 'a' || left(encode(sha256(k.outer_pad || sha256(k.inner_pad || convert_to(visitor_id, 'UTF8'))), 'hex'), 32)
  FROM public.author_key k
$$;

ALTER TABLE catalog_mural_strokes ADD COLUMN author_id text;
UPDATE catalog_mural_strokes SET author_id = public_author_id(visitor_id);
ALTER TABLE catalog_mural_strokes ALTER COLUMN author_id SET NOT NULL;
ALTER TABLE catalog_mural_strokes DROP COLUMN visitor_id;

-- The mural's budget (CONTRACT §9, decision 069). The points on the mural, kept beside its strokes'
-- appends in their transactions (a stroke adds, an undo gives back), and each visitor's points of the
-- last seconds, for the per-visitor window across processes.
CREATE TABLE mural_budget (
  only_one boolean PRIMARY KEY DEFAULT true CHECK (only_one),
  points   bigint NOT NULL
);
INSERT INTO mural_budget (points) SELECT coalesce(sum(jsonb_array_length(points)), 0) FROM catalog_mural_strokes;

CREATE TABLE mural_point_spends (
  visitor_id text NOT NULL,
  spent_at   timestamptz NOT NULL,
  points     integer NOT NULL
);
CREATE INDEX mural_point_spends_visitor ON mural_point_spends (visitor_id, spent_at);

-- Who follows the show on each API process, one entry per browser, so that one browser following
-- on many sockets (or processes) counts once (issue 20).
ALTER TABLE presence ADD COLUMN followers text[] NOT NULL DEFAULT '{}';
