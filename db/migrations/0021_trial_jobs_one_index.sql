DROP INDEX `trial_jobs_claimed_provider`;--> statement-breakpoint
DROP INDEX `trial_jobs_worker`;