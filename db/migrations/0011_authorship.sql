CREATE TABLE `activity` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`actor_id` text NOT NULL,
	`actor_email` text NOT NULL,
	`action` text NOT NULL,
	`subject_type` text NOT NULL,
	`subject_id` text NOT NULL,
	`system_id` text,
	`detail` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `activity_at` ON `activity` (`at`,`id`);--> statement-breakpoint
CREATE INDEX `activity_actor_at` ON `activity` (`actor_id`,`at`);--> statement-breakpoint
CREATE INDEX `activity_action_at` ON `activity` (`action`,`at`);--> statement-breakpoint
ALTER TABLE `benches` ADD `launched_by_id` text;--> statement-breakpoint
ALTER TABLE `benches` ADD `launched_by_email` text;--> statement-breakpoint
ALTER TABLE `benches` ADD `cancelled_by_id` text;--> statement-breakpoint
ALTER TABLE `benches` ADD `cancelled_by_email` text;--> statement-breakpoint
ALTER TABLE `case_revisions` ADD `author_id` text;--> statement-breakpoint
ALTER TABLE `case_revisions` ADD `author_email` text;--> statement-breakpoint
ALTER TABLE `criterion_revisions` ADD `author_id` text;--> statement-breakpoint
ALTER TABLE `criterion_revisions` ADD `author_email` text;--> statement-breakpoint
ALTER TABLE `dataset_versions` ADD `author_id` text;--> statement-breakpoint
ALTER TABLE `dataset_versions` ADD `author_email` text;--> statement-breakpoint
ALTER TABLE `prompt_revisions` ADD `author_id` text;--> statement-breakpoint
ALTER TABLE `prompt_revisions` ADD `author_email` text;