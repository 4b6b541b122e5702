/**
 * What the New bench form offers for a prompt: recorded-output columns (recorded candidates),
 * tags and datasets of its live cases, with how many cases have each.
 */
import type { Db } from "../client";

/**
 * A live case that a plan would not leave out as a duplicate: retained copies count only when their
 * original case is gone (lib/bench/plan.ts excludes a copy whose original is included).
 */
const OWN_CASE = `c.removed_at IS NULL AND NOT (c.source = 'retained' AND EXISTS (
  SELECT 1 FROM cases o WHERE o.id = json_extract(c.origin, '$.fromCaseId') AND o.removed_at IS NULL))`;

/** Recorded candidate names with their case counts (retained copies of live cases left out), most common first. */
export function recordedNames(db: Db, promptId: number): { name: string; cases: number }[] {
  return db.$client
    .prepare(
      `SELECT key AS name, count(DISTINCT c.id) AS cases FROM cases c JOIN case_revisions r ON r.id = c.current_revision_id,
         json_each(r.details, '$.recordedOutputs')
       WHERE c.prompt_id = ? AND ${OWN_CASE} GROUP BY key
       UNION
       SELECT key AS name, count(DISTINCT c.id) FROM cases c JOIN case_revisions r ON r.id = c.current_revision_id,
         json_each(r.details, '$.recordedToolCalls')
       WHERE c.prompt_id = ? AND ${OWN_CASE} AND json_type(r.details, '$.recordedToolCalls') = 'object' GROUP BY key
       ORDER BY cases DESC, name`,
    )
    .all(promptId, promptId)
    .reduce<{ name: string; cases: number }[]>((acc, r) => {
      const row = r as { name: string; cases: number };
      const hit = acc.find((a) => a.name === row.name);
      if (hit) hit.cases = Math.max(hit.cases, row.cases);
      else acc.push({ ...row });
      return acc;
    }, []);
}

/** Tags of the prompt's live cases with counts. */
export function promptTags(db: Db, promptId: number): { tag: string; cases: number }[] {
  return db.$client
    .prepare(
      `SELECT value AS tag, count(DISTINCT c.id) AS cases FROM cases c JOIN case_revisions r ON r.id = c.current_revision_id, json_each(r.details, '$.tags')
       WHERE c.prompt_id = ? AND c.removed_at IS NULL GROUP BY value ORDER BY cases DESC, tag`,
    )
    .all(promptId) as { tag: string; cases: number }[];
}

/** Datasets the prompt's golden cases came from, with counts. */
export function promptDatasets(db: Db, promptId: number): { dataset: string; cases: number }[] {
  return db.$client
    .prepare(
      `SELECT json_extract(origin, '$.datasetName') AS dataset, count(*) AS cases FROM cases
       WHERE prompt_id = ? AND removed_at IS NULL AND json_extract(origin, '$.kind') = 'dataset' GROUP BY 1 ORDER BY cases DESC`,
    )
    .all(promptId) as { dataset: string; cases: number }[];
}
