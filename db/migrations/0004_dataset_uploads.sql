CREATE TABLE `dataset_uploads` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`system_id` text NOT NULL,
	`file_name` text NOT NULL,
	`file_bytes` blob NOT NULL,
	`sheet` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`system_id`) REFERENCES `systems`(`id`) ON UPDATE no action ON DELETE no action
);
