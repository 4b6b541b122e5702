CREATE TABLE `bench_candidates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`bench_id` integer NOT NULL,
	`position` integer NOT NULL,
	`kind` text NOT NULL,
	`label` text NOT NULL,
	`model_config_id` integer,
	`model_config` text,
	`prompt_revision_id` integer,
	`recorded_name` text,
	FOREIGN KEY (`bench_id`) REFERENCES `benches`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`model_config_id`) REFERENCES `model_configs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`prompt_revision_id`) REFERENCES `prompt_revisions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `bench_candidates_position` ON `bench_candidates` (`bench_id`,`position`);--> statement-breakpoint
CREATE INDEX `bench_candidates_model` ON `bench_candidates` (`model_config_id`);--> statement-breakpoint
CREATE TABLE `bench_cases` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`bench_id` integer NOT NULL,
	`position` integer NOT NULL,
	`case_id` integer NOT NULL,
	`case_revision_id` integer NOT NULL,
	`case_key` text NOT NULL,
	`source` text NOT NULL,
	`group` text NOT NULL,
	`included` integer NOT NULL,
	`reason` text,
	`note` text,
	FOREIGN KEY (`bench_id`) REFERENCES `benches`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`case_id`) REFERENCES `cases`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`case_revision_id`) REFERENCES `case_revisions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `bench_cases_bench` ON `bench_cases` (`bench_id`,`position`);--> statement-breakpoint
CREATE TABLE `benches` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`system_id` text NOT NULL,
	`prompt_id` integer NOT NULL,
	`title` text NOT NULL,
	`status` text NOT NULL,
	`launch_key` text NOT NULL,
	`settings` text NOT NULL,
	`rubric` text NOT NULL,
	`rubric_hash` text NOT NULL,
	`baseline` text NOT NULL,
	`judge` text,
	`trial_count` integer NOT NULL,
	`created_at` integer NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	`cancel_requested_at` integer,
	`summary` text,
	`recommendation` text,
	FOREIGN KEY (`system_id`) REFERENCES `systems`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`prompt_id`) REFERENCES `prompts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `benches_launch_key_unique` ON `benches` (`launch_key`);--> statement-breakpoint
CREATE INDEX `benches_system_created` ON `benches` (`system_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `benches_prompt_created` ON `benches` (`prompt_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `benches_status` ON `benches` (`status`);--> statement-breakpoint
CREATE TABLE `dataset_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`dataset_id` integer NOT NULL,
	`version` integer NOT NULL,
	`file_name` text NOT NULL,
	`file_bytes` blob NOT NULL,
	`format` text NOT NULL,
	`encoding` text,
	`delimiter` text,
	`sheet` text,
	`columns` text NOT NULL,
	`mapping` text NOT NULL,
	`rows` text NOT NULL,
	`row_count` integer NOT NULL,
	`excluded_rows` text DEFAULT '[]' NOT NULL,
	`corrections` text DEFAULT '{}' NOT NULL,
	`redaction_report` text NOT NULL,
	`problems` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`dataset_id`) REFERENCES `datasets`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `dataset_versions_number` ON `dataset_versions` (`dataset_id`,`version`);--> statement-breakpoint
CREATE TABLE `datasets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`system_id` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`system_id`) REFERENCES `systems`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `datasets_system_name` ON `datasets` (`system_id`,`name`);--> statement-breakpoint
CREATE TABLE `model_configs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`provider` text NOT NULL,
	`model_id` text NOT NULL,
	`base_url` text,
	`api_key_env` text,
	`temperature` real,
	`max_output_tokens` integer,
	`input_price_per_mtok` real,
	`output_price_per_mtok` real,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `model_configs_name_unique` ON `model_configs` (`name`);--> statement-breakpoint
CREATE TABLE `trials` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`bench_id` integer NOT NULL,
	`candidate_id` integer NOT NULL,
	`bench_case_id` integer NOT NULL,
	`repeat` integer NOT NULL,
	`status` text NOT NULL,
	`worker_id` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	`latency_ms` integer,
	`input_tokens` integer,
	`output_tokens` integer,
	`cost_usd` real,
	`finish_reason` text,
	`output` text,
	`record` text,
	`checks` text,
	`passed_checks` integer DEFAULT 0 NOT NULL,
	`failed_checks` integer DEFAULT 0 NOT NULL,
	`unscored_checks` integer DEFAULT 0 NOT NULL,
	`error_checks` integer DEFAULT 0 NOT NULL,
	`error` text,
	FOREIGN KEY (`bench_id`) REFERENCES `benches`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`candidate_id`) REFERENCES `bench_candidates`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`bench_case_id`) REFERENCES `bench_cases`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `trials_unique` ON `trials` (`bench_id`,`candidate_id`,`bench_case_id`,`repeat`);--> statement-breakpoint
CREATE INDEX `trials_bench_status` ON `trials` (`bench_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `trials_worker` ON `trials` (`worker_id`) WHERE status = 'running';--> statement-breakpoint
CREATE TABLE `workers` (
	`id` text PRIMARY KEY NOT NULL,
	`pid` integer NOT NULL,
	`started_at` integer NOT NULL,
	`heartbeat_at` integer NOT NULL
);
