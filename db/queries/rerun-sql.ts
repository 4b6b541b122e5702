/**
 * SQL condition on trial `t`: no later trial reruns it. An errored trial that was rerun (issue #16
 * §3) stays stored as the attempt history, but its rerun stands in for it in the results.
 */
export const NOT_RERUN = "NOT EXISTS (SELECT 1 FROM trials rr WHERE rr.rerun_of = t.id)";
