ALTER TABLE `trials` ADD `rerun` text;--> statement-breakpoint
ALTER TABLE `trials` ADD `rerun_of` integer;--> statement-breakpoint
CREATE INDEX `trials_rerun_of` ON `trials` (`rerun_of`) WHERE rerun_of IS NOT NULL;