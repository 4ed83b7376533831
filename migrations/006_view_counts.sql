-- First-party view counts: distinct visitors who opened an item's detail page.
ALTER TABLE catalog_items ADD COLUMN view_count integer NOT NULL DEFAULT 0;
