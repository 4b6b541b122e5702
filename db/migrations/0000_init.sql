CREATE TABLE `case_revisions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`case_id` integer NOT NULL,
	`number` integer NOT NULL,
	`input` text NOT NULL,
	`expected` text NOT NULL,
	`details` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	`erased_at` integer,
	FOREIGN KEY (`case_id`) REFERENCES `cases`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `case_revisions_case_number` ON `case_revisions` (`case_id`,`number`);--> statement-breakpoint
CREATE TABLE `cases` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`case_key` text NOT NULL,
	`system_id` text NOT NULL,
	`prompt_id` integer NOT NULL,
	`source` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`user_corrected` integer DEFAULT false NOT NULL,
	`current_revision_id` integer,
	`revision_number` integer DEFAULT 1 NOT NULL,
	`origin` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`removed_at` integer,
	FOREIGN KEY (`system_id`) REFERENCES `systems`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`prompt_id`) REFERENCES `prompts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cases_case_key_live` ON `cases` (`case_key`) WHERE removed_at IS NULL;--> statement-breakpoint
CREATE INDEX `cases_system_updated` ON `cases` (`system_id`,`updated_at`,`id`) WHERE removed_at IS NULL;--> statement-breakpoint
CREATE INDEX `cases_system_source_updated` ON `cases` (`system_id`,`source`,`updated_at`,`id`) WHERE removed_at IS NULL;--> statement-breakpoint
CREATE INDEX `cases_system_status_updated` ON `cases` (`system_id`,`status`,`updated_at`,`id`) WHERE removed_at IS NULL;--> statement-breakpoint
CREATE INDEX `cases_system_prompt_updated` ON `cases` (`system_id`,`prompt_id`,`updated_at`,`id`) WHERE removed_at IS NULL;--> statement-breakpoint
CREATE INDEX `cases_system_key` ON `cases` (`system_id`,`case_key`) WHERE removed_at IS NULL;--> statement-breakpoint
CREATE TABLE `criteria` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`system_id` text NOT NULL,
	`prompt_id` integer NOT NULL,
	`origin` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`current_revision_id` integer,
	`revision_number` integer DEFAULT 1 NOT NULL,
	`customized_from_id` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`system_id`) REFERENCES `systems`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`prompt_id`) REFERENCES `prompts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `criteria_prompt` ON `criteria` (`prompt_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `criterion_revisions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`criterion_id` integer NOT NULL,
	`number` integer NOT NULL,
	`rule` text NOT NULL,
	`passes` text NOT NULL,
	`fails` text NOT NULL,
	`priority` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`criterion_id`) REFERENCES `criteria`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `criterion_revisions_criterion_number` ON `criterion_revisions` (`criterion_id`,`number`);--> statement-breakpoint
CREATE TABLE `prompt_revisions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`prompt_id` integer NOT NULL,
	`number` integer NOT NULL,
	`system_prompt` text NOT NULL,
	`model_settings` text DEFAULT '{}' NOT NULL,
	`tools` text DEFAULT '[]' NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`prompt_id`) REFERENCES `prompts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `prompt_revisions_prompt_number` ON `prompt_revisions` (`prompt_id`,`number`);--> statement-breakpoint
CREATE TABLE `prompts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`system_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`current_revision_id` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`system_id`) REFERENCES `systems`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `prompts_system_name` ON `prompts` (`system_id`,`name`);--> statement-breakpoint
CREATE TABLE `systems` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `workspace_meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
