/**
 * The regression status of each blocker of the recommendation. The gate (recommend.ts) lists the
 * blockers; `benchEvidence` classifies the bench summary's regressions. Both name a broken check by
 * case revision, check key and what it passed against, so that triple joins them.
 */
import type { Regression } from "@/lib/bench/recommend";
import type { RegressionReason, RegressionStatus } from "@/lib/bench/stats/regression-status";

type Key = Pick<Regression, "caseRevisionId" | "key" | "against">;
const keyOf = (r: Key) => `${r.caseRevisionId}|${r.key}|${r.against}`;

/**
 * The status of each blocker, in the blockers' order.
 * @param blockers the recommendation's blockers of one candidate
 * @param classified that candidate's regressions with their status (from `benchEvidence`)
 * @returns one status per blocker; "suspected" for a blocker the evidence does not list (a summary
 *   stored before the statistics: with no evidence a failure cannot be called confirmed)
 */
export function blockerStatuses(blockers: readonly Key[], classified: readonly (Key & { regressionStatus: RegressionStatus })[]): RegressionStatus[] {
  const byKey = new Map(classified.map((r) => [keyOf(r), r.regressionStatus]));
  return blockers.map((b) => byKey.get(keyOf(b)) ?? "suspected");
}

/**
 * The reason of each blocker's status ("deterministic replay") or null, in the blockers' order.
 * @param classified as in {@link blockerStatuses}, with each regression's reason
 */
export function blockerReasons(
  blockers: readonly Key[],
  classified: readonly (Key & { regressionReason?: RegressionReason | null })[],
): (RegressionReason | null)[] {
  const byKey = new Map(classified.map((r) => [keyOf(r), r.regressionReason ?? null]));
  return blockers.map((b) => byKey.get(keyOf(b)) ?? null);
}
