-- The mural's strokes go only to the screens that show the mural, a room of their own
-- (docs/decisions/116): its messages follow the last of everyone's and the mural's.
ALTER TABLE live_messages DROP CONSTRAINT live_messages_room_check;
ALTER TABLE live_messages ADD CONSTRAINT live_messages_room_check
  CHECK (room IN ('everyone', 'admins', 'mural') OR room LIKE 'mine:%');
-- Mural messages before this migration were everyone's, so everyone's last is the mural chain's last.
ALTER TABLE live_state ADD COLUMN last_mural bigint NOT NULL DEFAULT 0;
UPDATE live_state SET last_mural = last_everyone;
