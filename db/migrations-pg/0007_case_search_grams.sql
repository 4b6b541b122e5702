-- The Cases tab's search of short terms only (1–2 characters, db/queries/case-search-short.ts):
-- trigrams cannot serve them, and walking case_search read every row for a rare term. This GIN
-- index holds every 1- and 2-character piece of the lower-cased haystack: a term is in the haystack
-- (ILIKE: lower(haystack) contains lower(term)) only when all its pieces are, so
--   case_search_grams(haystack) @> case_search_grams(term) AND haystack ILIKE '%term%'
-- finds exactly the walk's matches. GIN keeps each distinct piece once per row.
-- COST: computing the pieces of a haystack is slow (a loop over its characters), so the planner
-- must never do it per row as a filter when the index can answer instead.
CREATE FUNCTION "case_search_grams"(t text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE COST 1000 AS $$
  SELECT string_to_array(l, NULL) || ARRAY(SELECT substr(l, i, 2) FROM generate_series(1, length(l) - 1) i) FROM lower(t) l
$$;
--> statement-breakpoint
CREATE INDEX "case_search_grams_gin" ON "case_search" USING gin ("case_search_grams"("haystack"));
