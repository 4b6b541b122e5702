DROP TABLE "workers" CASCADE;--> statement-breakpoint
ALTER TABLE "bench_candidates" ADD COLUMN "spent_usd" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "bench_candidates" ADD COLUMN "spent_trials" integer DEFAULT 0 NOT NULL;