-- Rate-limit counters shared by every API process (docs/decisions/020).
CREATE TABLE rate_limits (
  key      text PRIMARY KEY,
  hits     integer NOT NULL,
  reset_at timestamptz NOT NULL
);
CREATE INDEX rate_limits_reset ON rate_limits (reset_at);

-- A browser's long-lived identity (the httpOnly tg_visitor cookie): likes and login limits follow it
-- across logins. Only ids the server issued are honoured.
CREATE TABLE visitors (
  id         uuid PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO visitors (id) SELECT DISTINCT visitor_id FROM sessions ON CONFLICT DO NOTHING;

-- Idle timeout and the password a session was opened with (docs/decisions/023).
ALTER TABLE sessions
  ADD COLUMN last_seen_at timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN secret_tag text NOT NULL DEFAULT '';
CREATE INDEX sessions_visitor ON sessions (visitor_id);
