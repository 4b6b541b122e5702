-- Retention looks a case's retained copy up by its origin's fromCaseId (db/queries/retention.ts):
-- without an index each lookup scanned every case. Written by hand: drizzle-kit split the
-- expression at its comma (`json_extract("origin"`,` '$.fromCaseId')`).
CREATE INDEX `retention_origin_index` ON `cases` (json_extract("origin", '$.fromCaseId'));
