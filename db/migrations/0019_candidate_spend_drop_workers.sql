DROP TABLE `workers`;--> statement-breakpoint
ALTER TABLE `bench_candidates` ADD `spent_usd` real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `bench_candidates` ADD `spent_trials` integer DEFAULT 0 NOT NULL;