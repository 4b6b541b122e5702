/**
 * Counting many new cases at once on PostgreSQL (issue 20). `case_counts` is kept by a per-row
 * trigger on `cases` (pg migration 0001); an add of thousands of cases in one transaction made it
 * rewrite the same counter row once per case (each a new row version the next one has to step over:
 * 6,000 inserts took about twice as long). Here the caller's transaction tells the trigger to skip
 * its inserts (a transaction-local setting, pg migration 0008) and adds the new cases' counts in
 * one grouped statement. SQLite keeps its trigger as is (no row versions to step over).
 */
import { sql } from "drizzle-orm";
import { isPostgres, rawRows } from "../dialect";
import type { TxDb } from "../transaction";

/** The transaction-local setting the trigger `case_counts_sync` reads (pg migration 0008). */
const BY_CALLER = "benchwork.case_counts_by_caller";

/**
 * Runs `insert` (which adds cases inside the open transaction `tx`) with the counts of the cases
 * it returns added once at the end. On SQLite it only runs `insert`. Nothing in `insert` may change
 * the counted columns (system, prompt, source, status, removed) of the cases it adds.
 * @returns what `insert` returned
 * @throws what `insert` throws (the caller's transaction then rolls back, setting included)
 */
export async function withCaseCountsOnce<T extends { id: number }>(tx: TxDb, insert: () => Promise<T[]>): Promise<T[]> {
  if (!isPostgres(tx)) return insert();
  await rawRows(tx, sql`SELECT set_config(${BY_CALLER}, 'on', true)`);
  const added = await insert();
  await rawRows(tx, sql`SELECT set_config(${BY_CALLER}, 'off', true)`);
  if (added.length)
    await rawRows(
      tx,
      sql`INSERT INTO case_counts (system_id, prompt_id, source, status, n)
          SELECT system_id, prompt_id, source, status, count(*)::int FROM cases
          WHERE id = ANY(${`{${added.map((c) => c.id).join(",")}}`}::int[]) AND removed_at IS NULL
          GROUP BY system_id, prompt_id, source, status
          ON CONFLICT (system_id, prompt_id, source, status) DO UPDATE SET n = case_counts.n + excluded.n`,
    );
  return added;
}
