-- Erasure of names and free text (issue 13, docs/decisions/050): a person's titles, descriptions,
-- tags, names, story text and comments live in personal_data like their email, one row per value;
-- events hold the rows' ids. A subject is one person as the server knows them (one browser's visitor
-- id); erasing it blanks its rows and appends SubjectErased.

CREATE TABLE subjects (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- the browser's visitor id; NULL once erased, so the browser starts afresh as a new subject
  visitor_id uuid UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  erased_at  timestamptz
);

-- Whose value a row is, and the stream whose event refers to it. Anonymous work has no subject.
ALTER TABLE personal_data ADD COLUMN subject_id bigint REFERENCES subjects (id);
ALTER TABLE personal_data ADD COLUMN stream_id text;
CREATE INDEX personal_data_subject ON personal_data (subject_id) WHERE subject_id IS NOT NULL;

-- The streams an erasure took: the catalog skips their items and comments on every replay, and
-- drops them when it reads SubjectErased. Events written before personal data left the log (v1)
-- hold their values inline; these are never shown again once their stream is here.
CREATE TABLE erased_streams (
  stream_id  text PRIMARY KEY,
  subject_id bigint NOT NULL REFERENCES subjects (id),
  erased_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX erased_streams_subject ON erased_streams (subject_id);
