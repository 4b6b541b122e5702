-- Live-case counters per (system, prompt, source, status), kept by triggers, so the Cases tab's
-- totals and source badges cost a few rows instead of a scan of every case (issue #2 speed target).
CREATE TABLE `case_counts` (
  `system_id` text NOT NULL,
  `prompt_id` integer NOT NULL,
  `source` text NOT NULL,
  `status` text NOT NULL,
  `n` integer NOT NULL DEFAULT 0,
  PRIMARY KEY (`system_id`, `prompt_id`, `source`, `status`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO case_counts (system_id, prompt_id, source, status, n)
  SELECT system_id, prompt_id, source, status, count(*) FROM cases WHERE removed_at IS NULL GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
CREATE TRIGGER `cases_count_insert` AFTER INSERT ON `cases` WHEN NEW.removed_at IS NULL
BEGIN
  INSERT INTO case_counts (system_id, prompt_id, source, status, n) VALUES (NEW.system_id, NEW.prompt_id, NEW.source, NEW.status, 1)
    ON CONFLICT (system_id, prompt_id, source, status) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cases_count_update` AFTER UPDATE OF `system_id`, `prompt_id`, `source`, `status`, `removed_at` ON `cases`
BEGIN
  UPDATE case_counts SET n = n - 1
    WHERE OLD.removed_at IS NULL AND system_id = OLD.system_id AND prompt_id = OLD.prompt_id AND source = OLD.source AND status = OLD.status;
  INSERT INTO case_counts (system_id, prompt_id, source, status, n)
    SELECT NEW.system_id, NEW.prompt_id, NEW.source, NEW.status, 1 WHERE NEW.removed_at IS NULL
    ON CONFLICT (system_id, prompt_id, source, status) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cases_count_delete` AFTER DELETE ON `cases` WHEN OLD.removed_at IS NULL
BEGIN
  UPDATE case_counts SET n = n - 1
    WHERE system_id = OLD.system_id AND prompt_id = OLD.prompt_id AND source = OLD.source AND status = OLD.status;
END;
