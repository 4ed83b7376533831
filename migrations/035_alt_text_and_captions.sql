-- Issue 27: an artwork's description for those who cannot see it (alt text, docs/decisions/122),
-- read from the log's personal data like its title. Null for artworks sent without one.
ALTER TABLE catalog_items ADD COLUMN alt_text text;
