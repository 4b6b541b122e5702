-- A bench's JSON columns become json (keys stay in the order written, as on SQLite; jsonb re-sorts them).
ALTER TABLE "bench_candidates" ALTER COLUMN "model_config" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "benches" ALTER COLUMN "settings" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "benches" ALTER COLUMN "rubric" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "benches" ALTER COLUMN "baseline" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "benches" ALTER COLUMN "judge" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "benches" ALTER COLUMN "summary" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "benches" ALTER COLUMN "recommendation" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "trials" ALTER COLUMN "record" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "trials" ALTER COLUMN "checks" SET DATA TYPE json;--> statement-breakpoint
-- (Also in this migration, issue 20: bulk adds of cases count once.) An add of many cases in one
-- transaction (an import, Use a dataset: db/queries/case-counts-once.ts) sets
-- `benchwork.case_counts_by_caller` for that transaction and adds the counts of its new cases in one
-- grouped statement; the trigger then skips those inserts, instead of rewriting one counter row per case.
-- Updates and deletes are counted by the trigger as before.
CREATE OR REPLACE FUNCTION "case_counts_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' AND current_setting('benchwork.case_counts_by_caller', true) = 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.removed_at IS NULL THEN
    UPDATE case_counts SET n = n - 1
      WHERE system_id = OLD.system_id AND prompt_id = OLD.prompt_id AND source = OLD.source AND status = OLD.status;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.removed_at IS NULL THEN
    INSERT INTO case_counts (system_id, prompt_id, source, status, n) VALUES (NEW.system_id, NEW.prompt_id, NEW.source, NEW.status, 1)
      ON CONFLICT (system_id, prompt_id, source, status) DO UPDATE SET n = case_counts.n + 1;
  END IF;
  RETURN NULL;
END $$;
