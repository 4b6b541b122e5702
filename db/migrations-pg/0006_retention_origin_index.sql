-- Retention looks a case's retained copy up by its origin's fromCaseId (db/queries/retention.ts):
-- without an index each lookup scanned every case.
CREATE INDEX "retention_origin_index" ON "cases" USING btree (("origin" ->> 'fromCaseId'));
