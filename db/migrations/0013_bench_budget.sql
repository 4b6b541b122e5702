ALTER TABLE `benches` ADD `spent_usd` real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `benches` ADD `spent_trials` integer DEFAULT 0 NOT NULL;