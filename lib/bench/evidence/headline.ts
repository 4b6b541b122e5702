/**
 * The evidence headline of a bench (issue #16 §5): one sentence saying what the primary comparison
 * shows, with its interval, test and number of paired cases, and what blocks the candidate. It sits
 * above the recommendation's own headline; the gate rule (recommend.ts) is not changed by it.
 *
 *   "175b-verification beats 6b-finetuning by +32.5 points (95 % CI +25.3 to +39.7, p < 0.001,
 *    200 paired cases); 5 regressions block it"
 *   "No detectable difference between a and b (−5.0 points, 95 % CI −11.9 to +1.9, p = 0.150,
 *    200 paired cases): this bench can detect ≥ 7 points; add cases or repeats"
 *   "No difference its test can confirm between a and b (−13.8 points, 95 % CI −26.3 to −1.2,
 *    p = 0.125, 29 paired cases): the interval excludes 0 but the test does not reach p < 0.05; …"
 */
import type { PairedComparison } from "@/lib/bench/stats/paired";
import type { RegressionReason, RegressionStatus } from "@/lib/bench/stats/regression-status";
import { formatCi, formatPoints, formatPValue, minDetectablePoints } from "./format";
import { counted } from "@/lib/bench/counted";
import { n } from "@/lib/bench/progress-counts";

/** A paired comparison with whom it was made against (the shape `benchEvidence` returns). */
export interface LabelledComparison extends PairedComparison {
  against: "baseline" | "last";
  /** Label of the candidate compared with. */
  againstCandidate: string;
}

/** One candidate as the headline needs it, in the recommendation's rank order. */
export interface HeadlineCandidate {
  label: string;
  isBaseline: boolean;
  comparisons: readonly LabelledComparison[];
  /** Status of each regression that blocks it under the gate rule (one entry per blocker). */
  blockers: readonly RegressionStatus[];
  /** The reason of each blocker's status, in the same order ("deterministic replay" or null); absent: none. */
  blockerReasons?: readonly (RegressionReason | null)[];
}

/** The comparison the headline is about: which candidate, against whom. */
export interface PrimaryComparison {
  candidate: HeadlineCandidate;
  comparison: LabelledComparison;
}

/**
 * The primary comparison: the best-ranked candidate that is not the baseline, against the baseline
 * when it has that comparison, else against the last bench.
 * @param ranked candidates in rank order (rank 1 first)
 * @returns null when no candidate has a comparison (one candidate and no earlier bench)
 */
export function primaryComparison(ranked: readonly HeadlineCandidate[]): PrimaryComparison | null {
  for (const candidate of ranked) {
    if (candidate.isBaseline) continue;
    const comparison = candidate.comparisons.find((c) => c.against === "baseline") ?? candidate.comparisons[0];
    if (comparison) return { candidate, comparison };
  }
  // Only the baseline (or a sole candidate) was compared, with the last bench.
  for (const candidate of ranked) if (candidate.comparisons[0]) return { candidate, comparison: candidate.comparisons[0] };
  return null;
}

const plural = (k: number, one: string, many = `${one}s`) => counted(k, one, many);

/**
 * What blocks the candidate: "; 5 regressions block it (2 confirmed, 3 suspected)", or "". Those
 * confirmed as deterministic replays (no repeat rule: a rerun replays the same answers) are counted
 * apart: "(8 confirmed by deterministic replay)".
 */
function blockingClause(blockers: readonly RegressionStatus[], reasons: readonly (RegressionReason | null)[] = []): string {
  if (blockers.length === 0) return "";
  const detail = blockerBreakdown(blockers, reasons);
  return `; ${plural(blockers.length, "regression")} ${blockers.length === 1 ? "blocks" : "block"} it${detail}`;
}

/**
 * The blockers by status, as the headline and `bench run`'s candidate lines write them:
 * " (2 confirmed, 8 confirmed by deterministic replay, 3 suspected)", or "" when there is none.
 */
export function blockerBreakdown(blockers: readonly RegressionStatus[], reasons: readonly (RegressionReason | null)[] = []): string {
  const replay = blockers.filter((s, i) => s === "confirmed" && reasons[i] === "deterministic replay").length;
  const confirmed = blockers.filter((s) => s === "confirmed").length - replay;
  const suspected = blockers.filter((s) => s === "suspected").length;
  const parts = [
    confirmed ? `${n(confirmed)} confirmed` : "",
    replay ? `${n(replay)} confirmed by deterministic replay` : "",
    suspected ? `${n(suspected)} suspected` : "",
  ].filter(Boolean);
  // Always said, even when every status is the same: "5 regressions block it (5 suspected)".
  return parts.length ? ` (${parts.join(", ")})` : "";
}

/**
 * The evidence headline of a comparison, one sentence without a final stop.
 * @param p the primary comparison (see {@link primaryComparison})
 */
export function evidenceSentence(p: PrimaryComparison): string {
  const { candidate, comparison: c } = p;
  const who = candidate.label;
  const other = c.againstCandidate + (c.against === "last" ? " (last bench)" : "");
  const blocks = blockingClause(candidate.blockers, candidate.blockerReasons);
  if (c.n === 0 || c.delta === null) return `${who} and ${other} share no case both scored: nothing to compare${blocks}`;
  const stats = [c.ci95 ? formatCi(c.ci95) : null, c.pValue !== null ? formatPValue(c.pValue) : null, plural(c.n, "paired case")].filter(Boolean).join(", ");
  if (c.verdict === "better") return `${who} beats ${other} by ${formatPoints(c.delta)} points (${stats})${blocks}`;
  if (c.verdict === "worse") return `${who} is worse than ${other} by ${formatPoints(c.delta)} points (${stats})${blocks}`;
  const detect =
    c.minDetectableEffect !== null
      ? `: this bench can detect ≥ ${minDetectablePoints(c.minDetectableEffect)} points; add cases or repeats`
      : ": too few cases to tell; add cases or repeats";
  // The verdict needs the test too (paired.ts): a Wald interval can exclude 0 where the exact test
  // cannot. Say so, or the sentence reads as if its own interval said "no difference".
  if (c.ci95 && (c.ci95[0] > 0 || c.ci95[1] < 0))
    return `No difference its test can confirm between ${who} and ${other} (${formatPoints(c.delta)} points, ${stats}): the interval excludes 0 but the test does not reach p < 0.05${detect.replace(/^:/, ";")}${blocks}`;
  return `No detectable difference between ${who} and ${other} (${formatPoints(c.delta)} points, ${stats})${detect}${blocks}`;
}

/**
 * The headline of a bench from its ranked candidates, or null when nothing was compared.
 * @param ranked candidates in the recommendation's rank order
 */
export function evidenceHeadline(ranked: readonly HeadlineCandidate[]): string | null {
  const p = primaryComparison(ranked);
  return p ? evidenceSentence(p) : null;
}
