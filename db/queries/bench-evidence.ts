/**
 * The paired statistics of a bench (issue #16 §1–2), computed from its trials when the bench is
 * finalized and stored in its summary (`BenchSummary.evidence`), so the results page does not
 * count the trials and parse the checks of every regression on each render. Every finalize (the
 * end of a run, a confirm round, an error rerun) and every rescore (a human verdict) computes it
 * again. Case tallies come from SQL counts; checks are parsed only where one broke.
 */
import type { Db } from "../client";
import { benchCaseTallies } from "./bench-tallies";
import { classifyBenchRegressions } from "./regression-statuses";
import { getBench, type BenchSummary } from "./benches";
import { candidateRates, type CandidateRates } from "@/lib/bench/stats/candidate-rates";
import { compareCandidates, type CaseTally, type PairedComparison } from "@/lib/bench/stats/paired";
import type { RegressionStatus } from "@/lib/bench/stats/regression-status";

/** A comparison as stored: against whom, then the paired figures (the trade-offs are read from the summary). */
export interface StoredComparison extends PairedComparison {
  against: "baseline" | "last";
  /** Label of the candidate compared with. */
  againstCandidate: string;
  /** The bench that candidate ran in (this bench for the baseline). */
  againstBenchId: number;
}

/** The stored statistics of one candidate. */
export interface StoredEvidence {
  rates: CandidateRates;
  comparisons: StoredComparison[];
  /** One `[status, one-sided Fisher p]` per regression of the summary's list of this candidate, in its order. */
  statuses: [RegressionStatus, number | null][];
}

const NONE = new Map<number, CaseTally>();

/**
 * Computes the evidence of every candidate of bench `benchId` from its trials.
 * @param candidates the bench's candidates (id and label), in bench order
 * @param summary the summary being stored (its baseline, reference bench and candidate, regressions)
 * @returns per candidate id (as a string key, like the summary's other maps), its evidence
 */
export async function computeBenchEvidence(
  db: Db,
  benchId: number,
  candidates: readonly { id: number; label: string }[],
  summary: Pick<BenchSummary, "baselineCandidateId" | "referenceBenchId" | "referenceCandidateId" | "regressions">,
): Promise<Record<string, StoredEvidence>> {
  const cases = await benchCaseTallies(db, benchId);
  const { baselineCandidateId, referenceBenchId, referenceCandidateId } = summary;
  const prev = referenceBenchId !== null && referenceCandidateId !== null ? await getBench(db, referenceBenchId) : null;
  const labelIn = (list: readonly { id: number; label: string }[], id: number) => list.find((c) => c.id === id)?.label ?? `#${id}`;
  const baseCases = baselineCandidateId !== null ? (cases.get(baselineCandidateId) ?? NONE) : null;
  const refCases = prev ? ((await benchCaseTallies(db, prev.id, referenceCandidateId!)).get(referenceCandidateId!) ?? NONE) : null;
  // Per-check tallies only where a check broke (the reference's, the candidate's and its confirm rerun's trials of those case revisions).
  const classified = await classifyBenchRegressions(db, benchId, new Map(candidates.map((c) => [c.id, summary.regressions[String(c.id)] ?? []])), {
    baselineCandidateId,
    referenceBenchId: prev ? prev.id : null,
    referenceCandidateId: prev ? referenceCandidateId : null,
  });
  const out: Record<string, StoredEvidence> = {};
  for (const c of candidates) {
    const own = cases.get(c.id) ?? NONE;
    const comparisons: StoredComparison[] = [];
    if (baseCases && c.id !== baselineCandidateId)
      comparisons.push({
        against: "baseline",
        againstCandidate: labelIn(candidates, baselineCandidateId!),
        againstBenchId: benchId,
        ...compareCandidates(own, baseCases),
      });
    if (refCases && prev)
      comparisons.push({
        against: "last",
        againstCandidate: labelIn(prev.candidates, referenceCandidateId!),
        againstBenchId: prev.id,
        ...compareCandidates(own, refCases),
      });
    const statuses = (classified.get(c.id) ?? []).map((x): [RegressionStatus, number | null] => [x.status, x.pValue]);
    out[String(c.id)] = { rates: candidateRates(own.values()), comparisons, statuses };
  }
  return out;
}
