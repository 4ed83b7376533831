-- Payloads too large for NOTIFY, used by @socket.io/postgres-adapter.
CREATE TABLE IF NOT EXISTS socket_io_attachments (
  id          bigserial UNIQUE,
  created_at  timestamptz DEFAULT now(),
  payload     bytea
);
