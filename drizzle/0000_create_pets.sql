CREATE TABLE `pets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`category_id` integer NOT NULL,
	`status` text NOT NULL,
	CONSTRAINT "pets_name_length" CHECK(length("pets"."name") between 1 and 255),
	CONSTRAINT "pets_category_id_positive" CHECK("pets"."category_id" > 0),
	CONSTRAINT "pets_status_known" CHECK("pets"."status" in ('available', 'pending', 'sold'))
);
--> statement-breakpoint
CREATE INDEX `pets_status_id_idx` ON `pets` (`status`,`id`);