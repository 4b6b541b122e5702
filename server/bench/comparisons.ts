/**
 * The paired statistics of a finished bench (issue #16 §1–2): per candidate, its case-level pass
 * rate with the Wilson interval (and pass@k / pass^k with repeats), its paired comparisons against
 * the bench's baseline and against the reference candidate of the last bench of the same prompt
 * (the one its regressions were found against), and a regression status per broken check.
 * Computed when the bench is finalized and stored with its summary (`db/queries/bench-evidence`);
 * the formulas live in `lib/bench/stats`.
 */
import type { Db } from "@/db/client";
import { computeBenchEvidence, type StoredComparison } from "@/db/queries/bench-evidence";
import { getBench, type BenchDetail } from "@/db/queries/benches";
import type { Regression } from "@/lib/bench/recommend";
import type { CandidateRates } from "@/lib/bench/stats/candidate-rates";
import type { RegressionClassification, RegressionReason } from "@/lib/bench/stats/regression-status";
import type { Tradeoffs } from "@/lib/bench/stats/tradeoffs";

/** One comparison of a candidate: against whom, then the paired figures. */
export interface CandidateComparison extends StoredComparison {
  /** Against the baseline: cost per case and latency p50/p95 differences with their intervals (issue #16 §4); null when not computed (bench stored before). */
  tradeoffs?: Tradeoffs | null;
}

/** The statistics of one candidate. */
export interface CandidateEvidence {
  candidateId: number;
  rates: CandidateRates;
  comparisons: CandidateComparison[];
  /**
   * The bench summary's regressions of this candidate, in the same order, each with its status, its
   * one-sided Fisher p, and the reason when the status does not come from repeats ("deterministic
   * replay": a recorded answer against a recorded reference on a code check, confirmed without a p).
   */
  regressions: (Regression & {
    regressionStatus: RegressionClassification["status"];
    regressionPValue: number | null;
    regressionReason: RegressionReason | null;
  })[];
}

/**
 * The evidence of every candidate of bench `benchId`, in candidate order: as stored with its
 * summary when it was finalized (`computeBenchEvidence`), or — for a summary stored before the
 * evidence was — computed from the trials now.
 * @param loaded the bench as the caller already read it (the results page), so its summary is not read and parsed twice
 * @returns null when the bench does not exist or has no summary yet (still running)
 */
export async function benchEvidence(db: Db, benchId: number, loaded?: BenchDetail): Promise<CandidateEvidence[] | null> {
  const bench = loaded?.id === benchId ? loaded : await getBench(db, benchId);
  if (!bench?.summary) return null;
  const summary = bench.summary;
  const has = summary.evidence && bench.candidates.every((c) => summary.evidence![String(c.id)]);
  const stored = has ? summary.evidence! : await computeBenchEvidence(db, benchId, bench.candidates, summary, undefined, {}, bench.settings.repeats);
  return bench.candidates.map((c) => {
    const ev = stored[String(c.id)];
    const comparisons: CandidateComparison[] = ev.comparisons.map((x) =>
      x.against === "baseline" ? { ...x, tradeoffs: summary.tradeoffs?.[String(c.id)] ?? null } : x,
    );
    const regressions = (summary.regressions[String(c.id)] ?? []).map((r, i) => {
      const [status, pValue, reason] = ev.statuses[i] ?? ["suspected", null];
      return { ...r, regressionStatus: status, regressionPValue: pValue, regressionReason: reason ?? null };
    });
    return { candidateId: c.id, rates: ev.rates, comparisons, regressions };
  });
}
