-- Who uploaded a file (the browser's visitor id): daily quotas per visitor, a submission claims only
-- its own visitor's upload, and only the uploader (or an admin) may queue its processing again.
ALTER TABLE media_uploads ADD COLUMN uploaded_by uuid;
CREATE INDEX media_uploads_by_visitor ON media_uploads (uploaded_by, created_at);
