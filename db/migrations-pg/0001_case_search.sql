-- The Cases tab's search and counts on PostgreSQL (SQLite: migrations 0001_case_search, 0002_case_counts).
-- case_search holds the current revision's input and expected result of every live case (case_id =
-- cases.id), with trigram GIN indexes: `ILIKE '%term%'` (case-insensitive substring) at index speed.
-- case_counts holds live-case counters per (system, prompt, source, status). Both kept by triggers so
-- every writer (library, import, seed, retention) stays consistent.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "case_search" (
  "case_id" integer PRIMARY KEY REFERENCES "cases"("id"),
  "input" text NOT NULL,
  "expected" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "case_search_input_trgm" ON "case_search" USING gin ("input" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "case_search_expected_trgm" ON "case_search" USING gin ("expected" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "cases_case_key_trgm" ON "cases" USING gin ("case_key" gin_trgm_ops) WHERE removed_at IS NULL;
--> statement-breakpoint
CREATE FUNCTION "case_search_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM case_search WHERE case_id = NEW.id;
  IF NEW.removed_at IS NULL AND NEW.current_revision_id IS NOT NULL THEN
    INSERT INTO case_search (case_id, input, expected)
      SELECT NEW.id, input, expected FROM case_revisions WHERE id = NEW.current_revision_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "cases_search_sync" AFTER INSERT OR UPDATE OF "current_revision_id", "removed_at" ON "cases"
  FOR EACH ROW EXECUTE FUNCTION case_search_sync();
--> statement-breakpoint
CREATE TABLE "case_counts" (
  "system_id" text NOT NULL,
  "prompt_id" integer NOT NULL,
  "source" text NOT NULL,
  "status" text NOT NULL,
  "n" integer NOT NULL DEFAULT 0,
  PRIMARY KEY ("system_id", "prompt_id", "source", "status")
);
--> statement-breakpoint
CREATE FUNCTION "case_counts_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
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
--> statement-breakpoint
CREATE TRIGGER "cases_count_sync" AFTER INSERT OR DELETE OR UPDATE OF "system_id", "prompt_id", "source", "status", "removed_at" ON "cases"
  FOR EACH ROW EXECUTE FUNCTION case_counts_sync();
