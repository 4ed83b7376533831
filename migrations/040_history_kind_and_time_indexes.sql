-- Issue 29: the audit console's history filters by kind and by time (`GET /api/admin/events?kind=K`,
-- `?since=…&until=…`) read the log in seq order until a page filled: a rare kind, or an hour with
-- nothing in it, read the whole log (about 30 and 20 ms on 50,000 events, and on one core the room's
-- requests waited behind it). These find their rows at once (docs/decisions/158).
--
-- A kind is an item stream's prefix (`story-12`) or the `kind` an engagement event names.
CREATE INDEX events_stream_kind ON events (split_part(stream_id, '-', 1));
CREATE INDEX events_data_kind ON events ((data->>'kind'));
-- The log is appended in time order, so a block range index is a few pages, not a B-tree's entry per
-- event; autosummarize keeps it current as the log grows.
CREATE INDEX events_recorded_at ON events USING brin (recorded_at) WITH (autosummarize = on);
