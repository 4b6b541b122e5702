/**
 * SQL conditions on trial `t` for reruns inside a bench (issue #16 §3).
 */

/**
 * No later trial reruns it. An errored trial that was rerun stays stored as the attempt history,
 * but its rerun stands in for it in the results.
 */
export const NOT_RERUN = "NOT EXISTS (SELECT 1 FROM trials rr WHERE rr.rerun_of = t.id)";

/**
 * It counts in the bench's rates and comparisons: not replaced by a rerun, and not added by a
 * confirm round. Confirm trials were run because their case failed: counting them would weigh
 * those cases more and bias the pass rates, so they serve only as evidence for the regression
 * statuses (confirmed or cleared).
 */
export const IN_RESULTS = `coalesce(t.rerun, '') <> 'confirm' AND ${NOT_RERUN}`;
