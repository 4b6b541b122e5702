ALTER TABLE "bench_candidates" ALTER COLUMN "model_config" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "benches" ALTER COLUMN "settings" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "benches" ALTER COLUMN "rubric" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "benches" ALTER COLUMN "baseline" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "benches" ALTER COLUMN "judge" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "benches" ALTER COLUMN "summary" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "benches" ALTER COLUMN "recommendation" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "trials" ALTER COLUMN "record" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "trials" ALTER COLUMN "checks" SET DATA TYPE json;