-- Who did it: an admin or auditor may give a name at login. The name is personal data (erasable,
-- outside the log); sessions and events hold a reference to it. See docs/decisions/032-actors.md.

-- The kinds of personal data are PersonalData's to name ('email', 'ip', 'name', ...); the database
-- only insists on a plain word, so one more kind needs no migration that could drop another's.
ALTER TABLE personal_data DROP CONSTRAINT IF EXISTS personal_data_kind_check;
ALTER TABLE personal_data ADD CONSTRAINT personal_data_kind_check CHECK (kind ~ '^[a-z][a-z_]{0,30}$');

ALTER TABLE sessions ADD COLUMN name_ref bigint REFERENCES personal_data (id);

-- History filters by actor.
CREATE INDEX events_actor_ref ON events (((metadata->>'actorRef')::bigint)) WHERE metadata ? 'actorRef';
