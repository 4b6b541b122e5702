ALTER TABLE `dataset_versions` ADD `header_row` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- The Cases search also matches case IDs: the full-text index gets a third column, `case_key`
-- (trigram tokens: case-insensitive substrings, so part of an ID is enough). Rebuilt from the
-- live cases; the triggers are the ones of 0001_case_search plus the ID.
DROP TRIGGER `cases_search_revision`;
--> statement-breakpoint
DROP TRIGGER `cases_search_removed`;
--> statement-breakpoint
DROP TABLE `case_search`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `case_search` USING fts5(input, expected, case_key, tokenize = 'trigram', content = '', contentless_delete = 1);
--> statement-breakpoint
INSERT INTO case_search (rowid, input, expected, case_key)
  SELECT c.id, r.input, r.expected, c.case_key FROM cases c JOIN case_revisions r ON r.id = c.current_revision_id WHERE c.removed_at IS NULL;
--> statement-breakpoint
CREATE TRIGGER `cases_search_revision` AFTER UPDATE OF `current_revision_id` ON `cases`
WHEN NEW.removed_at IS NULL AND NEW.current_revision_id IS NOT NULL
BEGIN
  DELETE FROM case_search WHERE rowid = NEW.id;
  INSERT INTO case_search (rowid, input, expected, case_key)
    SELECT NEW.id, input, expected, NEW.case_key FROM case_revisions WHERE id = NEW.current_revision_id;
END;
--> statement-breakpoint
CREATE TRIGGER `cases_search_removed` AFTER UPDATE OF `removed_at` ON `cases`
WHEN NEW.removed_at IS NOT NULL
BEGIN
  DELETE FROM case_search WHERE rowid = NEW.id;
END;
