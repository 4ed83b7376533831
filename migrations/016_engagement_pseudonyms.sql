-- The key of the per-item pseudonyms that like and view streams are named by (decision 050): the log
-- tells neither which browser liked or viewed an item nor that two items' likes came from one browser.
-- One row, made here; it never leaves the database (an export does not carry it).
CREATE TABLE pseudonym_key (
  only_one boolean PRIMARY KEY DEFAULT true CHECK (only_one),
  secret   text NOT NULL
);
INSERT INTO pseudonym_key (secret) VALUES (replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''));
