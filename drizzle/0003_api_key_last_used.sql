CREATE TABLE `api_key_last_used` (
	`api_key_hash` text PRIMARY KEY NOT NULL,
	`day` text NOT NULL
);
