-- The Cases tab's search and counts on PostgreSQL (SQLite: migrations 0001_case_search, 0002_case_counts,
-- 0006_case_id_search_header_row). Both kept by triggers so every writer (library, import, seed,
-- retention) stays consistent.
-- case_search: one row per live case with a current revision (case_id = cases.id): its system and a
-- haystack of the current revision's input, expected result and the case ID, one per line. A search
-- term (no whitespace) is found in one of the three exactly when it is in the haystack; the trigram
-- GIN index answers `haystack ILIKE '%term%'` (case-insensitive substring), several terms ANDed in
-- one index scan:
--   SELECT case_id FROM case_search WHERE system_id = $1 AND haystack ILIKE $2 [AND haystack ILIKE $3 …]
--   ORDER BY case_id DESC LIMIT <bound + 1>
-- case_counts: live-case counters per (system, prompt, source, status).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "case_search" (
  "case_id" integer PRIMARY KEY REFERENCES "cases"("id"),
  "system_id" text NOT NULL,
  "haystack" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "case_search_haystack_trgm" ON "case_search" USING gin ("haystack" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "case_search_system" ON "case_search" ("system_id", "case_id");
--> statement-breakpoint
CREATE FUNCTION "case_search_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM case_search WHERE case_id = NEW.id;
  IF NEW.removed_at IS NULL AND NEW.current_revision_id IS NOT NULL THEN
    INSERT INTO case_search (case_id, system_id, haystack)
      SELECT NEW.id, NEW.system_id, input || E'\n' || expected || E'\n' || NEW.case_key FROM case_revisions WHERE id = NEW.current_revision_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "cases_search_sync" AFTER INSERT OR UPDATE OF "current_revision_id", "removed_at", "case_key", "system_id" ON "cases"
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
