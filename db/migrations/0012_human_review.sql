CREATE TABLE `human_verdicts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`trial_id` integer NOT NULL,
	`check_key` text NOT NULL,
	`verdict` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`reviewer` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`trial_id`) REFERENCES `trials`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `human_verdicts_trial_check_reviewer` ON `human_verdicts` (`trial_id`,`check_key`,`reviewer`);--> statement-breakpoint
CREATE INDEX `human_verdicts_trial` ON `human_verdicts` (`trial_id`);--> statement-breakpoint
CREATE TABLE `prompt_calibration_settings` (
	`prompt_id` integer PRIMARY KEY NOT NULL,
	`kappa_threshold` real NOT NULL,
	`min_reviewed` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`prompt_id`) REFERENCES `prompts`(`id`) ON UPDATE no action ON DELETE no action
);
