CREATE TABLE `deprecated_calls` (
	`api_key_hash` text NOT NULL,
	`key_label` text NOT NULL,
	`operation` text NOT NULL,
	`day` text NOT NULL,
	`calls` integer NOT NULL,
	`last_call_at` integer NOT NULL,
	PRIMARY KEY(`api_key_hash`, `operation`, `day`)
);
--> statement-breakpoint
CREATE INDEX `deprecated_calls_day_idx` ON `deprecated_calls` (`day`);