/**
 * The paired statistics of a finished bench (issue #16 §1–2): per candidate, its case-level pass
 * rate with the Wilson interval (and pass@k / pass^k with repeats), its paired comparisons against
 * the bench's baseline and against the reference candidate of the last bench of the same prompt
 * (the one its regressions were found against), and a regression status per broken check.
 * Case tallies come from SQL counts, checks are parsed only where one broke; the formulas live in
 * `lib/bench/stats`.
 */
import type { Db } from "@/db/client";
import { benchCaseTallies } from "@/db/queries/bench-tallies";
import { classifyBenchRegressions } from "@/db/queries/regression-statuses";
import { getBench, type BenchDetail } from "@/db/queries/benches";
import type { Regression } from "@/lib/bench/recommend";
import { candidateRates, type CandidateRates } from "@/lib/bench/stats/candidate-rates";
import { compareCandidates, type CaseTally, type PairedComparison } from "@/lib/bench/stats/paired";
import type { RegressionClassification } from "@/lib/bench/stats/regression-status";
import type { Tradeoffs } from "@/lib/bench/stats/tradeoffs";

/** One comparison of a candidate: against whom, then the paired figures. */
export interface CandidateComparison extends PairedComparison {
  against: "baseline" | "last";
  /** Label of the candidate compared with. */
  againstCandidate: string;
  /** The bench that candidate ran in (this bench for the baseline). */
  againstBenchId: number;
  /** Against the baseline: cost per case and latency p50/p95 differences with their intervals (issue #16 §4); null when not computed (bench stored before). */
  tradeoffs?: Tradeoffs | null;
}

/** The statistics of one candidate. */
export interface CandidateEvidence {
  candidateId: number;
  rates: CandidateRates;
  comparisons: CandidateComparison[];
  /** The bench summary's regressions of this candidate, in the same order, each with its status. */
  regressions: (Regression & { regressionStatus: RegressionClassification["status"]; regressionPValue: number | null })[];
}

const NONE = new Map<number, CaseTally>();

/**
 * The evidence of every candidate of bench `benchId`, in candidate order. Case tallies come from
 * the trials' count columns; checks are parsed only for the case revisions of broken checks.
 * @param loaded the bench as the caller already read it (the results page), so its summary is not read and parsed twice
 * @returns null when the bench does not exist or has no summary yet (still running)
 */
export async function benchEvidence(db: Db, benchId: number, loaded?: BenchDetail): Promise<CandidateEvidence[] | null> {
  const bench = loaded?.id === benchId ? loaded : await getBench(db, benchId);
  if (!bench?.summary) return null;
  const summary = bench.summary;
  const cases = benchCaseTallies(db, benchId);
  const { baselineCandidateId, referenceBenchId, referenceCandidateId } = summary;
  const prev = referenceBenchId !== null && referenceCandidateId !== null ? await getBench(db, referenceBenchId) : null;
  const label = (b: BenchDetail, id: number) => b.candidates.find((c) => c.id === id)?.label ?? `#${id}`;
  const baseCases = baselineCandidateId !== null ? (cases.get(baselineCandidateId) ?? NONE) : null;
  const refCases = prev ? (benchCaseTallies(db, prev.id, referenceCandidateId!).get(referenceCandidateId!) ?? NONE) : null;

  // Per-check tallies only where a check broke (the reference's, the candidate's and its confirm rerun's trials of those case revisions).
  const classified = classifyBenchRegressions(db, benchId, new Map(bench.candidates.map((c) => [c.id, summary.regressions[String(c.id)] ?? []])), {
    baselineCandidateId,
    referenceBenchId: prev ? prev.id : null,
    referenceCandidateId: prev ? referenceCandidateId : null,
  });

  return bench.candidates.map((c) => {
    const own = cases.get(c.id) ?? NONE;
    const comparisons: CandidateComparison[] = [];
    if (baseCases && c.id !== baselineCandidateId)
      comparisons.push({
        against: "baseline",
        againstCandidate: label(bench, baselineCandidateId!),
        againstBenchId: benchId,
        ...compareCandidates(own, baseCases),
        tradeoffs: summary.tradeoffs?.[String(c.id)] ?? null,
      });
    if (refCases && prev)
      comparisons.push({ against: "last", againstCandidate: label(prev, referenceCandidateId!), againstBenchId: prev.id, ...compareCandidates(own, refCases) });
    const mine = summary.regressions[String(c.id)] ?? [];
    const regressions = mine.map((r, i) => {
      const cls = classified.get(c.id)![i];
      return { ...r, regressionStatus: cls.status, regressionPValue: cls.pValue };
    });
    return { candidateId: c.id, rates: candidateRates(own.values()), comparisons, regressions };
  });
}
