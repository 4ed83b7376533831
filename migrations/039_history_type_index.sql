-- Issue 29: the audit console's history filter by type (`GET /api/admin/events?type=T`) found a rare or
-- missing type by reading the whole log in seq order; this index finds its rows at once
-- (docs/decisions/137). It costs each append about 5 µs of PostgreSQL's CPU (BENCHMARKS.md).
CREATE INDEX events_type ON events (type, position);
