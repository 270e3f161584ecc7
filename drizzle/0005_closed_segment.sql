-- Custom SQL migration file, put your code below! ---- What drizzle-kit cannot say from src/db/schema.ts: a closed segment refuses new pets
-- (a Worker that still writes to it creates in the next segment instead), and the
-- segment table holds one row at most.
CREATE TRIGGER `pets_segment_closed` BEFORE INSERT ON `pets`
WHEN EXISTS (SELECT 1 FROM `segment` WHERE `closed_at` IS NOT NULL)
BEGIN
	SELECT RAISE(ABORT, 'pets_segment_closed');
END;
--> statement-breakpoint
CREATE TRIGGER `segment_one_row` BEFORE INSERT ON `segment`
WHEN EXISTS (SELECT 1 FROM `segment`)
BEGIN
	SELECT RAISE(ABORT, 'segment_one_row');
END;
