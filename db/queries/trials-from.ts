/**
 * `FROM trials` with an index hint on SQLite (results page speed, issue #16). Some grouped reads of a
 * bench's trials are fast only when SQLite reads a given index (by status first, or the covering
 * `trials_matrix`); its planner otherwise walks every trial row of the bench. PostgreSQL has no
 * hints and plans these itself: there it is the plain table. Select its columns through
 * {@link trialsColumn} (drizzle refuses a plain column of a table it does not see in the FROM).
 */
import { sql, type Column, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { isPostgres } from "../dialect";
import { trials } from "../schema";

/** Indexes of `trials` a query may ask SQLite to read (db/schema.ts). */
export type TrialsIndex = "trials_bench_status" | "trials_matrix" | "trials_rerun_of";

/**
 * The `trials` table for `.from(…)`, read through `index` on SQLite.
 * @param db the store the query runs on (its dialect decides)
 */
export function trialsIndexedBy(db: Db, index: TrialsIndex): SQL {
  return isPostgres(db) ? sql`${trials}` : sql`${trials} INDEXED BY ${sql.raw(index)}`;
}

/** A column of `trials` to select from {@link trialsIndexedBy}, read as drizzle reads the column. */
export function trialsColumn<T>(column: Column & { _: { data: T } }): SQL<T> {
  return sql<T>`${column}`.mapWith(column);
}
