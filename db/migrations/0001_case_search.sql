-- Full-text index over the current revision's input and expected result of every live case.
-- Trigram tokens give substring search (case-insensitive) at index speed; rowid = cases.id.
-- Kept in step by triggers so every writer (library, import, seed, retention) stays consistent.
CREATE VIRTUAL TABLE `case_search` USING fts5(input, expected, tokenize = 'trigram', content = '', contentless_delete = 1);
--> statement-breakpoint
CREATE TRIGGER `cases_search_revision` AFTER UPDATE OF `current_revision_id` ON `cases`
WHEN NEW.removed_at IS NULL AND NEW.current_revision_id IS NOT NULL
BEGIN
  DELETE FROM case_search WHERE rowid = NEW.id;
  INSERT INTO case_search (rowid, input, expected)
    SELECT NEW.id, input, expected FROM case_revisions WHERE id = NEW.current_revision_id;
END;
--> statement-breakpoint
CREATE TRIGGER `cases_search_removed` AFTER UPDATE OF `removed_at` ON `cases`
WHEN NEW.removed_at IS NOT NULL
BEGIN
  DELETE FROM case_search WHERE rowid = NEW.id;
END;
