-- Per-second limits count the hits of the last second, not those of a window the first hit opened
-- (docs/decisions/086): a burst that straddles the end of such a window was counted twice over.
-- A short limit keeps its hits in 11 slots of a tenth of its window, newest first: the hits counted
-- are those of the last 1.0 to 1.1 windows, so what falls within one window is always counted.
ALTER TABLE rate_limits ADD COLUMN slots integer[];
ALTER TABLE rate_limits ADD COLUMN slot bigint;

-- `slots` moved on to the slot of `at_ms` (the hits' time, in ms since 1970, as the process that took
-- them saw it; the newest slot's index is `slot`), with `n` hits added to it: what is kept, the total
-- counted, and when the last of it leaves the window.
CREATE FUNCTION rate_limit_slide(
  slots integer[], slot bigint, slot_ms double precision, n integer, at_ms double precision,
  OUT slots_now integer[], OUT slot_now bigint, OUT hits integer, OUT reset_at timestamptz
) LANGUAGE sql IMMUTABLE AS $$
  WITH t AS (
    SELECT greatest(coalesce(slot, 0), floor(at_ms / slot_ms)::bigint) AS s),
  moved AS (
    SELECT ARRAY(
      SELECT CASE WHEN i = 1 THEN n ELSE 0 END + coalesce(slots[(i - least(t.s - coalesce(slot, t.s), 11))::int], 0)
      FROM generate_series(1, 11) i ORDER BY i) AS a, t.s
    FROM t)
  SELECT a, s, (SELECT coalesce(sum(x), 0)::int FROM unnest(a) x), to_timestamp((s + 11) * slot_ms / 1000)
  FROM moved
$$;
