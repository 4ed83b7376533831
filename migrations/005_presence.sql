-- How many sockets each API process holds, so every screen can show the total viewing.
CREATE TABLE presence (
  process_id text PRIMARY KEY,
  online     integer NOT NULL,
  seen_at    timestamptz NOT NULL DEFAULT now()
);
