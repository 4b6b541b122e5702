/**
 * The paired statistics of a bench (issue #16 §1–2), computed from its trials when the bench is
 * finalized and stored in its summary (`BenchSummary.evidence`), so the results page does not
 * count the trials and parse the checks of every regression on each render. Every finalize (the
 * end of a run, a confirm round, an error rerun) and every rescore (a human verdict) computes it
 * again. Case tallies come from SQL counts; checks are parsed only where one broke.
 */
import type { Db } from "../client";
import { benchCaseTallies } from "./bench-tallies";
import { classifyBenchRegressions, type KnownCheckTallies } from "./regression-statuses";
import { getBench, type BenchSummary } from "./benches";
import { candidateRates, type CandidateRates } from "@/lib/bench/stats/candidate-rates";
import { compareCandidates, type CaseTally, type PairedComparison } from "@/lib/bench/stats/paired";
import type { RegressionReason, RegressionStatus } from "@/lib/bench/stats/regression-status";
import { asDeterministicReplay, isDeterministicRegression, type CandidateKind } from "@/lib/bench/stats/deterministic";

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
  /**
   * One `[status, one-sided Fisher p, reason]` per regression of the summary's list of this
   * candidate, in its order; the reason only when the status does not come from the repeat rule
   * (a deterministic replay). Evidence stored before has no reason.
   */
  statuses: [RegressionStatus, number | null, RegressionReason?][];
}

const NONE: ReadonlyMap<number, CaseTally> = new Map();

/**
 * Computes the evidence of every candidate of bench `benchId` from its trials.
 * @param candidates the bench's candidates (id, label and kind), in bench order; a regression of a
 *   recorded candidate against a recorded reference on a code check is a deterministic replay
 * @param summary the summary being stored (its baseline, reference bench and candidate, regressions)
 * @param knownCases this bench's case tallies when the caller read them already (the finalize: `benchCaseFigures`), else read here
 * @param known per-check tallies the caller has (the finalize's check outcomes; see `KnownCheckTallies` for when they serve)
 * @param repeats the bench's trials per case, for pass@K at K when an errored trial leaves a case fewer (`CandidateRates.atRepeats`)
 * @returns per candidate id (as a string key, like the summary's other maps), its evidence
 */
export async function computeBenchEvidence(
  db: Db,
  benchId: number,
  candidates: readonly { id: number; label: string; kind?: "model" | "recorded" }[],
  summary: Pick<BenchSummary, "baselineCandidateId" | "referenceBenchId" | "referenceCandidateId" | "regressions">,
  knownCases?: ReadonlyMap<number, ReadonlyMap<number, CaseTally>>,
  known: KnownCheckTallies = {},
  repeats = 1,
): Promise<Record<string, StoredEvidence>> {
  const cases = knownCases ?? (await benchCaseTallies(db, benchId));
  const { baselineCandidateId, referenceBenchId, referenceCandidateId } = summary;
  const prev = referenceBenchId !== null && referenceCandidateId !== null ? await getBench(db, referenceBenchId) : null;
  const kindOf = (list: readonly { id: number; kind?: "model" | "recorded" }[], id: number | null): CandidateKind =>
    list.find((c) => c.id === id)?.kind ?? null;
  const labelIn = (list: readonly { id: number; label: string }[], id: number) => list.find((c) => c.id === id)?.label ?? `#${id}`;
  const baseCases = baselineCandidateId !== null ? (cases.get(baselineCandidateId) ?? NONE) : null;
  const refCases = prev ? ((await benchCaseTallies(db, prev.id, referenceCandidateId!)).get(referenceCandidateId!) ?? NONE) : null;
  // Per-check tallies only where a check broke (the reference's, the candidate's and its confirm rerun's trials of those case revisions).
  const classified = await classifyBenchRegressions(
    db,
    benchId,
    new Map(candidates.map((c) => [c.id, summary.regressions[String(c.id)] ?? []])),
    { baselineCandidateId, referenceBenchId: prev ? prev.id : null, referenceCandidateId: prev ? referenceCandidateId : null },
    known,
  );
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
    const list = summary.regressions[String(c.id)] ?? [];
    const statuses = (classified.get(c.id) ?? []).map((x, i): StoredEvidence["statuses"][number] => {
      const r = list[i];
      const referenceKind = r?.against === "baseline" ? kindOf(candidates, baselineCandidateId) : kindOf(prev?.candidates ?? [], referenceCandidateId);
      const y = r && isDeterministicRegression({ candidateKind: c.kind ?? null, referenceKind, checkKey: r.key }) ? asDeterministicReplay(x) : x;
      return y.reason ? [y.status, y.pValue, y.reason] : [y.status, y.pValue];
    });
    out[String(c.id)] = { rates: candidateRates(own.values(), repeats), comparisons, statuses };
  }
  return out;
}
