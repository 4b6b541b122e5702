/**
 * SQL conditions on the `trials` table of a query for reruns inside a bench (issue #16 §3), as
 * drizzle fragments (the same SQL on SQLite and PostgreSQL). The query selects from `trials`
 * itself (not an alias): the conditions refer to `trials.id` and `trials.rerun`.
 */
import { sql } from "drizzle-orm";
import { trials } from "../schema";

/**
 * No later trial reruns it. An errored trial that was rerun stays stored as the attempt history,
 * but its rerun stands in for it in the results. A rerun that never ran or is not counted (skipped:
 * its rerun was cancelled, or the spend cap kept it from starting) stands in for nothing: the
 * errored trial counts as before and can be rerun again (issue #16).
 */
// `trials.id` as text, not the column object: drizzle writes a column selected from one table without
// its table name, and inside this subquery a bare "id" would be the rerun's own id.
export const NOT_RERUN = sql`NOT EXISTS (SELECT 1 FROM trials rr WHERE rr.rerun_of = trials.id AND rr.status <> 'skipped')`;

/**
 * A later trial reruns it and stands in for it (the opposite of {@link NOT_RERUN}), written as a
 * plain EXISTS: PostgreSQL plans `NOT (NOT EXISTS …)` as a hashed subplan over every trial of every
 * bench (46 ms a progress poll beside 60,000 trials, issue #20), EXISTS as a lookup per errored trial.
 */
export const RERUN_STANDS_IN = sql`EXISTS (SELECT 1 FROM trials rr WHERE rr.rerun_of = trials.id AND rr.status <> 'skipped')`;

/** Not a skipped error rerun: one that stands in for nothing (see {@link NOT_RERUN}), so it is no trial of the results either. */
export const NOT_SKIPPED_ERROR_RERUN = sql`NOT (coalesce(${trials.rerun}, '') = 'error' AND ${trials.status} = 'skipped')`;

/**
 * It counts in the bench's rates and comparisons: not replaced by a rerun, and not added by a
 * confirm round. Confirm trials were run because their case failed: counting them would weigh
 * those cases more and bias the pass rates, so they serve only as evidence for the regression
 * statuses (confirmed or cleared).
 */
export const IN_RESULTS = sql`coalesce(${trials.rerun}, '') <> 'confirm' AND ${NOT_SKIPPED_ERROR_RERUN} AND ${NOT_RERUN}`;
