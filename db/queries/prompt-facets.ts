/**
 * What the New bench form offers for a prompt: recorded-output columns (recorded candidates),
 * tags and datasets of its live cases, with how many cases have each. Raw SQL over the JSON of
 * case details and origins, one aggregated query per facet, in each store's JSON functions
 * (SQLite json_each/json_extract, PostgreSQL jsonb_each/jsonb_array_elements_text/->>).
 */
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { isPostgres, rawRows } from "../dialect";

/**
 * A live case that a plan would not leave out as a duplicate: retained copies count only when their
 * original case is gone (lib/bench/plan.ts excludes a copy whose original is included).
 */
function ownCase(db: Db): SQL {
  const original = isPostgres(db)
    ? sql.raw(`CASE WHEN jsonb_typeof(c.origin::jsonb -> 'fromCaseId') = 'number' THEN (c.origin::jsonb ->> 'fromCaseId')::bigint END`)
    : sql.raw(`json_extract(c.origin, '$.fromCaseId')`);
  return sql`c.removed_at IS NULL AND NOT (c.source = 'retained' AND EXISTS (
  SELECT 1 FROM cases o WHERE o.id = ${original} AND o.removed_at IS NULL))`;
}

/** The keys of the object at `details.<field>` of revision `r`, one row each as `key` (none when it is not an object). */
function objectKeys(db: Db, field: "recordedOutputs" | "recordedToolCalls"): SQL {
  return isPostgres(db)
    ? sql.raw(`jsonb_each(CASE WHEN jsonb_typeof(r.details::jsonb -> '${field}') = 'object' THEN r.details::jsonb -> '${field}' ELSE '{}'::jsonb END) AS j`)
    : sql.raw(`json_each(CASE WHEN json_type(r.details, '$.${field}') = 'object' THEN json_extract(r.details, '$.${field}') ELSE '{}' END) AS j`);
}

/** Recorded candidate names with their case counts (retained copies of live cases left out), most common first. */
export async function recordedNames(db: Db, promptId: number): Promise<{ name: string; cases: number }[]> {
  const rows = await rawRows<{ name: string; cases: number | string }>(
    db,
    sql`SELECT j.key AS name, count(DISTINCT c.id) AS cases FROM cases c JOIN case_revisions r ON r.id = c.current_revision_id
         CROSS JOIN ${objectKeys(db, "recordedOutputs")}
       WHERE c.prompt_id = ${promptId} AND ${ownCase(db)} GROUP BY j.key
       UNION
       SELECT j.key AS name, count(DISTINCT c.id) AS cases FROM cases c JOIN case_revisions r ON r.id = c.current_revision_id
         CROSS JOIN ${objectKeys(db, "recordedToolCalls")}
       WHERE c.prompt_id = ${promptId} AND ${ownCase(db)} GROUP BY j.key
       ORDER BY cases DESC, name`,
  );
  return rows.reduce<{ name: string; cases: number }[]>((acc, r) => {
    const row = { name: r.name, cases: Number(r.cases) };
    const hit = acc.find((a) => a.name === row.name);
    if (hit) hit.cases = Math.max(hit.cases, row.cases);
    else acc.push(row);
    return acc;
  }, []);
}

/** Tags of the prompt's live cases with counts, most common first. */
export async function promptTags(db: Db, promptId: number): Promise<{ tag: string; cases: number }[]> {
  const tags = isPostgres(db)
    ? sql.raw(
        `jsonb_array_elements_text(CASE WHEN jsonb_typeof(r.details::jsonb -> 'tags') = 'array' THEN r.details::jsonb -> 'tags' ELSE '[]'::jsonb END) AS j(value)`,
      )
    : sql.raw(`json_each(r.details, '$.tags') AS j`);
  const rows = await rawRows<{ tag: string; cases: number | string }>(
    db,
    sql`SELECT j.value AS tag, count(DISTINCT c.id) AS cases FROM cases c JOIN case_revisions r ON r.id = c.current_revision_id CROSS JOIN ${tags}
       WHERE c.prompt_id = ${promptId} AND c.removed_at IS NULL GROUP BY j.value ORDER BY cases DESC, tag`,
  );
  return rows.map((r) => ({ tag: r.tag, cases: Number(r.cases) }));
}

/** Datasets the prompt's golden cases came from, with counts, most common first. */
export async function promptDatasets(db: Db, promptId: number): Promise<{ dataset: string; cases: number }[]> {
  const field = (key: string) => (isPostgres(db) ? sql.raw(`(origin::jsonb ->> '${key}')`) : sql.raw(`json_extract(origin, '$.${key}')`));
  const rows = await rawRows<{ dataset: string; cases: number | string }>(
    db,
    sql`SELECT ${field("datasetName")} AS dataset, count(*) AS cases FROM cases
       WHERE prompt_id = ${promptId} AND removed_at IS NULL AND ${field("kind")} = 'dataset' GROUP BY 1 ORDER BY cases DESC, dataset`,
  );
  return rows.map((r) => ({ dataset: r.dataset, cases: Number(r.cases) }));
}
