/**
 * The counts at the end of a candidate's summary line in `bench run` (issue #16): what blocks it,
 * counted like the evidence headline (the gate's blockers, by status), the regressions a rerun
 * cleared or the baseline's flakiness excused (shown, not blocking), its fixes and the gate limits
 * it exceeds. One source for the counts, so the line and the headline never disagree.
 */
import type { RegressionReason, RegressionStatus } from "@/lib/bench/stats/regression-status";
import { blockerBreakdown } from "./headline";
import { counted } from "@/lib/bench/counted";
import { n } from "@/lib/bench/progress-counts";

/** What a candidate's line counts. */
export interface CandidateCountsInput {
  /** Status of each regression that blocks it under the gate (the recommendation's blockers). */
  blockers: readonly RegressionStatus[];
  /** The reason of each blocker's status, same order ("deterministic replay" or null). */
  blockerReasons: readonly (RegressionReason | null)[];
  /** Status of every regression the evidence lists for it (blocking or not). */
  regressions: readonly RegressionStatus[];
  /** Checks it fixed (the reference failed every scored trial, it passed every one). */
  fixes: number;
  /** Gate limits it exceeds, e.g. "cost per case +1957 % exceeds the +30 % limit". */
  limits: readonly string[];
}

const count = (k: number, one: string, many: string) => counted(k, one, many);

/**
 * The suffix of a candidate's line: " · 1 blocking regression (1 confirmed) · 1 flaky — cleared ·
 * 1 fix · blocked by the gate: cost per case +1957 % exceeds the +30 % limit", or "" when there is nothing to count.
 */
export function candidateCounts(c: CandidateCountsInput): string {
  const parts: string[] = [];
  if (c.blockers.length)
    parts.push(`${count(c.blockers.length, "blocking regression", "blocking regressions")}${blockerBreakdown(c.blockers, c.blockerReasons)}`);
  const cleared = c.regressions.filter((s) => s === "cleared").length;
  if (cleared) parts.push(`${n(cleared)} flaky — cleared`);
  const flaky = c.regressions.filter((s) => s === "flaky on baseline").length;
  if (flaky) parts.push(`${n(flaky)} flaky on baseline`);
  if (c.fixes) parts.push(count(c.fixes, "fix", "fixes"));
  if (c.limits.length) parts.push(`blocked by the gate: ${c.limits.join("; ")}`);
  return parts.map((p) => ` · ${p}`).join("");
}
