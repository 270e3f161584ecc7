CREATE TABLE `segment` (
	`position` integer PRIMARY KEY NOT NULL,
	`closed_at` integer
);
