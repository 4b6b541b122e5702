CREATE TABLE `generation_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`system_id` text NOT NULL,
	`prompt_id` integer NOT NULL,
	`prompt_revision_id` integer NOT NULL,
	`model` text NOT NULL,
	`generator_revision` text NOT NULL,
	`requested_criteria` integer NOT NULL,
	`requested_scenarios` integer NOT NULL,
	`dropped` text DEFAULT '[]' NOT NULL,
	`diversity` text DEFAULT '{}' NOT NULL,
	`usage` text DEFAULT '{}' NOT NULL,
	`concepts` text DEFAULT '{}' NOT NULL,
	`duration_ms` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`system_id`) REFERENCES `systems`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`prompt_id`) REFERENCES `prompts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`prompt_revision_id`) REFERENCES `prompt_revisions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `generation_runs_prompt_created` ON `generation_runs` (`prompt_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `proposals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` text NOT NULL,
	`system_id` text NOT NULL,
	`prompt_id` integer NOT NULL,
	`kind` text NOT NULL,
	`position` integer NOT NULL,
	`status` text DEFAULT 'proposed' NOT NULL,
	`content` text NOT NULL,
	`criterion_id` integer,
	`case_id` integer,
	`created_at` integer NOT NULL,
	`decided_at` integer,
	FOREIGN KEY (`run_id`) REFERENCES `generation_runs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`system_id`) REFERENCES `systems`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`prompt_id`) REFERENCES `prompts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`criterion_id`) REFERENCES `criteria`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`case_id`) REFERENCES `cases`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `proposals_prompt_status` ON `proposals` (`prompt_id`,`status`,`kind`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `proposals_run_position` ON `proposals` (`run_id`,`kind`,`position`);