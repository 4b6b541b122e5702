-- Case IDs are unique within a prompt's library (issue 15), not across the workspace; a prompt's
-- default checks; the checks a dataset version was confirmed with at mapping time.
CREATE TABLE `prompt_default_checks` (
	`prompt_id` integer PRIMARY KEY NOT NULL,
	`checks` text DEFAULT '[]' NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`prompt_id`) REFERENCES `prompts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
DROP INDEX `cases_case_key_live`;--> statement-breakpoint
CREATE UNIQUE INDEX `cases_prompt_case_key_live` ON `cases` (`prompt_id`,`case_key`) WHERE removed_at IS NULL;--> statement-breakpoint
ALTER TABLE `dataset_versions` ADD `checks` text DEFAULT '[]' NOT NULL;