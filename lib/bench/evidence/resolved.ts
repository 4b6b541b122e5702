/**
 * Which of a bench's regressions a confirm round resolved (issue #16 §3): `cleared` (the failure
 * did not reproduce) or `flaky on baseline` (the reference failed a rerun itself). They no longer
 * block, and the results matrix shows them muted as "flaky — cleared" instead of "regressed".
 */
import type { Regression } from "@/lib/bench/recommend";
import type { RegressionReason, RegressionStatus } from "@/lib/bench/stats/regression-status";

/** A regression with its status when the bench's evidence was computed (absent: a summary stored before, counted as open). */
export type StatusedRegression = Regression & { regressionStatus?: RegressionStatus; regressionReason?: RegressionReason | null };

/** Whether a confirm round resolved this regression. */
export function isResolved(r: StatusedRegression): boolean {
  return r.regressionStatus === "cleared" || r.regressionStatus === "flaky on baseline";
}

/**
 * How the regressions of one matrix cell (or case) show: `regressed` when one of them is still
 * open (confirmed or suspected), `cleared` when a confirm round resolved every one, null when none.
 */
export function regressionMark(list: readonly StatusedRegression[]): "regressed" | "cleared" | null {
  if (list.length === 0) return null;
  return list.every(isResolved) ? "cleared" : "regressed";
}
