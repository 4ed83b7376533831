-- Your contributions (CONTRACT §11, docs/decisions/087): which browser sent which item. Kept outside
-- the log, as personal data is: the log never links a person's work (decision 050), and anonymous
-- work belongs to no subject, yet its sender may still edit or withdraw it. Written in the
-- submission's transaction; an erasure of the browser takes its rows.
CREATE TABLE contributions (
  stream_id  text PRIMARY KEY,
  kind       text NOT NULL CHECK (kind IN ('artwork', 'story', 'media')),
  item_id    bigint NOT NULL,
  visitor_id uuid NOT NULL
);
CREATE INDEX contributions_visitor ON contributions (visitor_id);

-- Named work sent before: its words belong to the browser's subject (decision 050). Anonymous
-- stories from before have no link to any browser and stay unowned.
INSERT INTO contributions (stream_id, kind, item_id, visitor_id)
SELECT DISTINCT ON (p.stream_id) p.stream_id, m[1], m[2]::bigint, s.visitor_id
FROM personal_data p JOIN subjects s ON s.id = p.subject_id,
  regexp_match(p.stream_id, '^(artwork|story|media)-(\d+)$') m
WHERE s.visitor_id IS NOT NULL AND m IS NOT NULL
ORDER BY p.stream_id
ON CONFLICT DO NOTHING;

-- `mine:changed` goes to one browser's sockets only (room `mine:<visitor id>`): it rides the outbox,
-- in position order and across API processes, but is never part of a catch-up or another's sequence.
ALTER TABLE live_messages DROP CONSTRAINT live_messages_room_check;
ALTER TABLE live_messages ADD CONSTRAINT live_messages_room_check
  CHECK (room IN ('everyone', 'admins') OR room LIKE 'mine:%');
