-- How many of each API process's sockets follow the show (a /reveal screen), so the presenter can
-- show the total across processes beside the total online (decision 036).
ALTER TABLE presence ADD COLUMN following integer NOT NULL DEFAULT 0;
