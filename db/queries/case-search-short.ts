/**
 * The Cases tab's search on PostgreSQL when every term is shorter than 3 characters (issue 20).
 * Trigrams cannot serve such a term, and the newest-first walk of `case_search` that serves a common
 * one ('7', 'e': the bound is reached after a few thousand rows) read all 100,000 rows for a rare
 * one ('zz': p95 152 ms). `case_search_grams` (db/migrations-pg/0007_case_search_grams.sql) indexes
 * every 1- and 2-character piece of the lower-cased haystack (GIN): a term is in the haystack only
 * when all its pieces are, so the index finds the few candidates of a rare term and ILIKE decides.
 *
 * Which way to go depends on how common the term is, so the search walks the newest `head` rows
 * first (all their matches), then goes on with whichever reads fewer rows: the walk (common terms)
 * or the index (rare ones). Either way the answer is the one the walk alone gives: the newest
 * `limit` matches by case id.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { rawRows } from "../dialect";

/** Rows of `case_search` walked before choosing (a few ms; the Cases tab's target is p95 < 50 ms). */
export const SHORT_SEARCH_HEAD = 2_000;

/** `haystack ILIKE pattern` for every pattern (the terms, escaped for LIKE). */
function allTerms(patterns: string[]): SQL {
  return sql.join(
    patterns.map((p) => sql`haystack ILIKE ${p} ESCAPE '\\'`),
    sql` AND `,
  );
}

/**
 * The index part of the search: case ids below `below` whose haystack holds every piece of every
 * term (`case_search_grams`, computed once from the terms), newest first. Exported for its plan test.
 */
export function gramCandidatesSql(systemId: string, terms: string[], patterns: string[], below: number, limit: number): SQL {
  const grams = sql.join(
    terms.map((t) => sql`case_search_grams(${t})`),
    sql` || `,
  );
  return sql`SELECT case_id FROM case_search WHERE system_id = ${systemId} AND case_id < ${below} AND case_search_grams(haystack) @> (${grams}) AND ${allTerms(patterns)} ORDER BY case_id DESC LIMIT ${limit}`;
}

/** How the search went on after the head (for tests and figures). */
export type ShortSearchWay = "head" | "walk" | "index";

/**
 * The newest `limit` case ids of `systemId` whose `case_search` haystack holds every term.
 * @param terms the raw terms (each shorter than 3 characters, no whitespace)
 * @param patterns the same terms as `%…%` LIKE patterns with `\` escapes
 * @param liveCases the system's live cases (the rows of case_search, near enough), for the choice
 * @param head rows walked before choosing (tests use a small one)
 */
export async function shortTermMatches(
  db: Db,
  systemId: string,
  terms: string[],
  patterns: string[],
  limit: number,
  liveCases: number,
  head: number = SHORT_SEARCH_HEAD,
): Promise<{ ids: number[]; way: ShortSearchWay }> {
  const match = allTerms(patterns);
  const [first] = await rawRows<{ hits: number[] | null; n: number; floor: number | null }>(
    db,
    sql`SELECT array_agg(case_id ORDER BY case_id DESC) FILTER (WHERE ${match}) AS hits, count(*)::int AS n, min(case_id) AS floor
        FROM (SELECT case_id, haystack FROM case_search WHERE system_id = ${systemId} ORDER BY case_id DESC LIMIT ${head}) h`,
  );
  const hits = (first?.hits ?? []).map(Number);
  if (hits.length >= limit || !first || first.n < head || first.floor === null) return { ids: hits.slice(0, limit), way: "head" };
  const needed = limit - hits.length;
  // Rows each way would read: the walk about needed / share rows (all the rest at most); the index
  // about share × rest rows (its candidates, fetched and checked). The share is the head's.
  const share = hits.length / first.n;
  const rest = Math.max(liveCases - first.n, 1);
  const way: ShortSearchWay = share * rest < Math.min(rest, needed / share) ? "index" : "walk";
  const more =
    way === "index"
      ? await rawRows<{ case_id: number }>(db, gramCandidatesSql(systemId, terms, patterns, first.floor, needed))
      : await rawRows<{ case_id: number }>(
          db,
          sql`SELECT case_id FROM case_search WHERE system_id = ${systemId} AND case_id < ${first.floor} AND ${match} ORDER BY case_id DESC LIMIT ${needed}`,
        );
  return { ids: [...hits, ...more.map((r) => Number(r.case_id))], way };
}
