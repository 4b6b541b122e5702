/**
 * A finished bench's flips against its baseline and the checks its baseline is flaky on (issue
 * #16 §5), for `bench run --json-output`: matrix counts for the cases, the baseline's stored
 * checks (one pass over its trials) for the checks.
 */
import type { Db } from "@/db/client";
import { matrixRows } from "@/db/queries/bench-matrix";
import { trialFacts } from "@/db/queries/bench-results";
import type { BenchDetail } from "@/db/queries/benches";
import { flakyChecks, flipTable, resolvedFlipCases, type CandidateFlips, type FlakyCheck } from "@/lib/bench/evidence/flips";

/** Per candidate (not the baseline): its flips and the baseline's flaky checks on the cases it scored too. */
export interface CandidateFlipReport {
  candidateId: number;
  flips: CandidateFlips;
  flakyOnBaseline: FlakyCheck[];
}

/**
 * @returns one report per candidate other than the baseline, in bench order; [] without a baseline candidate
 */
export async function benchFlips(db: Db, bench: BenchDetail): Promise<CandidateFlipReport[]> {
  const baselineId = bench.summary?.baselineCandidateId ?? null;
  if (baselineId === null) return [];
  const rows = await matrixRows(db, bench.id);
  const flaky = flakyChecks(await trialFacts(db, bench.id, baselineId));
  return flipTable(
    rows,
    baselineId,
    bench.candidates.map((c) => c.id),
    resolvedFlipCases(bench.summary?.regressions ?? {}, bench.summary?.evidence),
  ).map((flips) => {
    const scored = new Set(rows.filter((r) => (r.cells[flips.candidateId]?.scoredTrials ?? 0) > 0).map((r) => r.caseRevisionId));
    return { candidateId: flips.candidateId, flips, flakyOnBaseline: flaky.filter((f) => scored.has(f.caseRevisionId)) };
  });
}
