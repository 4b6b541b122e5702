/**
 * The paired statistics of a finished bench (issue #16 §1–2): per candidate, its case-level pass
 * rate with the Wilson interval (and pass@k / pass^k with repeats), its paired comparisons against
 * the bench's baseline and against the reference candidate of the last bench of the same prompt
 * (the one its regressions were found against), and a regression status per broken check.
 * Reads the trials once per bench; the formulas live in `lib/bench/stats`.
 */
import type { Db } from "@/db/client";
import { trialFacts } from "@/db/queries/bench-results";
import { getBench, type BenchDetail } from "@/db/queries/benches";
import type { Regression } from "@/lib/bench/recommend";
import { candidateRates, type CandidateRates } from "@/lib/bench/stats/candidate-rates";
import { compareCandidates, type PairedComparison } from "@/lib/bench/stats/paired";
import { classifyCheck, type RegressionClassification } from "@/lib/bench/stats/regression-status";
import { benchTallies, type SideTallies } from "@/lib/bench/stats/tallies";

/** One comparison of a candidate: against whom, then the paired figures. */
export interface CandidateComparison extends PairedComparison {
  against: "baseline" | "last";
  /** Label of the candidate compared with. */
  againstCandidate: string;
  /** The bench that candidate ran in (this bench for the baseline). */
  againstBenchId: number;
}

/** The statistics of one candidate. */
export interface CandidateEvidence {
  candidateId: number;
  rates: CandidateRates;
  comparisons: CandidateComparison[];
  /** The bench summary's regressions of this candidate, in the same order, each with its status. */
  regressions: (Regression & { regressionStatus: RegressionClassification["status"]; regressionPValue: number | null })[];
}

const EMPTY: SideTallies = { cases: new Map(), checks: new Map() };

/**
 * The evidence of every candidate of bench `benchId`, in candidate order.
 * @returns null when the bench does not exist or has no summary yet (still running)
 */
export async function benchEvidence(db: Db, benchId: number): Promise<CandidateEvidence[] | null> {
  const bench = await getBench(db, benchId);
  if (!bench?.summary) return null;
  const tallies = benchTallies(trialFacts(db, benchId));
  const { baselineCandidateId, referenceBenchId, referenceCandidateId } = bench.summary;
  let reference: { bench: BenchDetail; tallies: SideTallies | undefined } | null = null;
  if (referenceBenchId !== null && referenceCandidateId !== null) {
    const prev = await getBench(db, referenceBenchId);
    if (prev) reference = { bench: prev, tallies: benchTallies(trialFacts(db, referenceBenchId, referenceCandidateId)).get(referenceCandidateId) };
  }
  const label = (b: BenchDetail, id: number) => b.candidates.find((c) => c.id === id)?.label ?? `#${id}`;
  const baseT = baselineCandidateId !== null ? (tallies.get(baselineCandidateId) ?? EMPTY) : null;
  const refT = reference ? (reference.tallies ?? EMPTY) : null;

  return bench.candidates.map((c) => {
    const own = tallies.get(c.id) ?? EMPTY;
    const comparisons: CandidateComparison[] = [];
    if (baseT && c.id !== baselineCandidateId) comparisons.push({ against: "baseline", againstCandidate: label(bench, baselineCandidateId!), againstBenchId: benchId, ...compareCandidates(own.cases, baseT.cases) });
    if (refT && reference) comparisons.push({ against: "last", againstCandidate: label(reference.bench, referenceCandidateId!), againstBenchId: reference.bench.id, ...compareCandidates(own.cases, refT.cases) });
    const regressions = (bench.summary!.regressions[String(c.id)] ?? []).map((r) => {
      const ref = r.against === "baseline" ? baseT : refT;
      const k = `${r.caseRevisionId}|${r.key}`;
      const cls = classifyCheck(ref?.checks.get(k) ?? { passed: 0, scored: 0 }, own.checks.get(k) ?? { passed: 0, scored: 0 });
      return { ...r, regressionStatus: cls.status, regressionPValue: cls.pValue };
    });
    return { candidateId: c.id, rates: candidateRates(own.cases.values()), comparisons, regressions };
  });
}
