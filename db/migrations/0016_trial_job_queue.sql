CREATE TABLE `queue_benches` (
	`bench_id` integer PRIMARY KEY NOT NULL,
	`concurrency` integer NOT NULL,
	`cancelled_at` integer,
	FOREIGN KEY (`bench_id`) REFERENCES `benches`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `queue_lanes` (
	`bench_id` integer NOT NULL,
	`provider_key` text NOT NULL,
	PRIMARY KEY(`bench_id`, `provider_key`),
	FOREIGN KEY (`bench_id`) REFERENCES `benches`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `queue_providers` (
	`provider_key` text PRIMARY KEY NOT NULL,
	`concurrency` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `trial_jobs` (
	`trial_id` integer PRIMARY KEY NOT NULL,
	`bench_id` integer NOT NULL,
	`provider_key` text NOT NULL,
	`state` text NOT NULL,
	`deliveries` integer DEFAULT 0 NOT NULL,
	`worker_id` text,
	`token` text,
	`expires_at` integer,
	FOREIGN KEY (`trial_id`) REFERENCES `trials`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `trial_jobs_lane` ON `trial_jobs` (`state`,`bench_id`,`provider_key`,`trial_id`);--> statement-breakpoint
CREATE INDEX `trial_jobs_claimed_provider` ON `trial_jobs` (`state`,`provider_key`);--> statement-breakpoint
CREATE INDEX `trial_jobs_worker` ON `trial_jobs` (`worker_id`);