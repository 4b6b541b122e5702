/**
 * Results of a bench, computed when it ends (and readable while it runs): per-candidate
 * statistics, regressions against the baseline and the last bench of the same prompt, the
 * recommendation, and the cases to retain for the next bench.
 */
import type { Db } from "../client";
import { aggregateCandidates, checkOutcomes, type TrialFacts } from "@/lib/bench/aggregate";
import { findRegressions, recommend, type Recommendation, type Regression } from "@/lib/bench/recommend";
import type { CheckRecord } from "@/lib/bench/types";
import { getBench, previousFinishedBench, type BenchSummary } from "./benches";

/** Trial facts of a bench (optionally one candidate), with checks parsed. */
export function trialFacts(db: Db, benchId: number, candidateId?: number): TrialFacts[] {
  const rows = db.$client
    .prepare(
      `SELECT t.candidate_id AS candidateId, bc.case_revision_id AS caseRevisionId, bc.case_key AS caseKey, t.repeat AS repeat, t.status AS status,
              t.checks AS checks, t.input_tokens AS inputTokens, t.output_tokens AS outputTokens, t.cost_usd AS costUsd, t.latency_ms AS latencyMs
       FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id
       WHERE t.bench_id = ? ${candidateId ? "AND t.candidate_id = ?" : ""}`,
    )
    .all(...(candidateId ? [benchId, candidateId] : [benchId])) as (Omit<TrialFacts, "checks"> & { checks: string | null })[];
  return rows.map((r) => ({ ...r, checks: r.checks ? (JSON.parse(r.checks) as CheckRecord[]) : null }));
}

/**
 * Computes summary and recommendation of a bench from its trials.
 * The reference of "the last bench of the same suite" is that bench's recommended candidate, else
 * its baseline, else its first candidate.
 */
export async function computeBenchResults(db: Db, benchId: number): Promise<{ summary: BenchSummary; recommendation: Recommendation }> {
  const bench = (await getBench(db, benchId))!;
  const facts = trialFacts(db, benchId);
  const ids = bench.candidates.map((c) => c.id);
  const stats = aggregateCandidates(ids, facts);
  const baselineCandidateId = bench.baseline.kind === "candidate" ? (bench.candidates.find((c) => c.position === (bench.baseline as { position: number }).position)?.id ?? null) : null;
  const outcomes = new Map(ids.map((id) => [id, checkOutcomes(facts, id)]));

  const regressions = new Map<number, Regression[]>();
  if (baselineCandidateId !== null) {
    const base = outcomes.get(baselineCandidateId)!;
    for (const id of ids) if (id !== baselineCandidateId) regressions.set(id, findRegressions(base, outcomes.get(id)!, "baseline"));
  }
  const referenceBenchId = bench.baseline.kind === "none" ? null : await previousFinishedBench(db, bench.promptId, benchId);
  let referenceCandidateId: number | null = null;
  if (referenceBenchId !== null) {
    const prev = (await getBench(db, referenceBenchId))!;
    referenceCandidateId = prev.recommendation?.recommendedCandidateId ?? prev.summary?.baselineCandidateId ?? prev.candidates[0]?.id ?? null;
    if (referenceCandidateId !== null) {
      const ref = checkOutcomes(trialFacts(db, referenceBenchId, referenceCandidateId), referenceCandidateId);
      for (const id of ids) regressions.set(id, [...(regressions.get(id) ?? []), ...findRegressions(ref, outcomes.get(id)!, "last bench")]);
    }
  }
  const recommendation = recommend(
    bench.candidates.map((c) => ({ id: c.id, label: c.label, stats: stats.find((s) => s.candidateId === c.id)! })),
    baselineCandidateId,
    regressions,
  );
  return {
    summary: {
      candidates: stats.map((s) => ({ candidateId: s.candidateId, stats: s })),
      baselineCandidateId,
      referenceBenchId,
      referenceCandidateId,
      regressions: Object.fromEntries([...regressions].map(([k, v]) => [String(k), v])),
      retained: 0,
    },
    recommendation,
  };
}
