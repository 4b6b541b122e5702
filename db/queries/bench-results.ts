/**
 * Results of a bench, computed when it ends (and readable while it runs): per-candidate
 * statistics, regressions against the baseline and the last bench of the same prompt, the
 * recommendation, and the cases to retain for the next bench.
 */
import type { Db } from "../client";
import { aggregateCandidates, checkOutcomes, percentile, type TrialFacts } from "@/lib/bench/aggregate";
import {
  findFixes,
  findRegressions,
  mergeRegressions,
  recommend,
  type Fix,
  type LastBenchReference,
  type Recommendation,
  type Regression,
} from "@/lib/bench/recommend";
import type { CheckRecord } from "@/lib/bench/types";
import { getBench, previousFinishedBench, type BenchSummary } from "./benches";
import { matrixRows, TRIAL_VERDICT_SUMS } from "./bench-matrix";
import { flipTable, storedFlips } from "@/lib/bench/evidence/flips";
import { IN_RESULTS } from "./rerun-sql";
import { classifyBenchRegressions, type KnownCheckTallies, type RegressionReferences } from "./regression-statuses";
import { HUMAN_OVERLAY_SQL, parseHumanOverlay } from "./human-verdicts";
import { applyHumanVerdicts } from "@/lib/review/overlay";
import { advisoryCheckKeys, advisoryNote, markAdvisory } from "@/lib/review/advisory";
import { benchTradeoffs } from "./bench-costs";
import { computeBenchEvidence } from "./bench-evidence";
import { benchCaseFigures } from "./bench-tallies";
import { gateLimitBlocks } from "@/lib/bench/stats/gate-limits";
import { checkTalliesFromOutcomes } from "@/lib/bench/stats/tallies";

/** Check outcomes of one candidate (see `checkOutcomes`). */
type CheckOutcomes = ReturnType<typeof checkOutcomes>;

/**
 * Trial facts of a bench (optionally one candidate), with checks parsed down to what aggregation
 * reads (key, label, kind, verdict, priority, a judge's usage; not messages, scores or details).
 * @returns an iterable that reads the trials from the database each time it is iterated, one row
 *   at a time: a bench's results are computed over all its trials, and holding them all at once
 *   made the worker's memory grow with the bench's size (issue #5: memory flat as trials grow).
 *   Iterate it synchronously (the connection is busy while a pass runs).
 */
export function trialFacts(db: Db, benchId: number, candidateId?: number): Iterable<TrialFacts> {
  const stmt = db.$client.prepare(
    `SELECT t.candidate_id AS candidateId, bc.case_revision_id AS caseRevisionId, bc.case_key AS caseKey, t.repeat AS repeat, t.status AS status,
            t.checks AS checks, t.input_tokens AS inputTokens, t.output_tokens AS outputTokens, t.cost_usd AS costUsd, t.latency_ms AS latencyMs,
            ${HUMAN_OVERLAY_SQL} AS human
     FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id
     WHERE t.bench_id = ? ${candidateId ? "AND t.candidate_id = ?" : ""} AND ${IN_RESULTS}`,
  );
  const params = candidateId ? [benchId, candidateId] : [benchId];
  return {
    *[Symbol.iterator]() {
      // Labels, kinds and keys repeat on every trial: one string each, not one per row.
      const shared = new Map<string, string>();
      const share = (v: string) => {
        const s = shared.get(v);
        if (s !== undefined) return s;
        shared.set(v, v);
        return v;
      };
      for (const { human, ...r } of stmt.iterate(...params) as Iterable<Omit<TrialFacts, "checks"> & { checks: string | null; human: string | null }>) {
        // A reviewer's pass or fail takes precedence over the recorded verdict (issue 18).
        const checks = r.checks
          ? applyHumanVerdicts(JSON.parse(r.checks) as CheckRecord[], parseHumanOverlay(human)).map((c) => ({
              key: share(c.key),
              label: share(c.label),
              kind: share(c.kind),
              verdict: c.verdict,
              ...(c.priority ? { priority: c.priority } : {}),
              ...(c.usage ? { usage: c.usage } : {}),
            }))
          : null;
        yield { ...r, caseKey: share(r.caseKey), checks };
      }
    },
  };
}

/**
 * One candidate's check outcomes in a bench (per case revision and check, over its repeats): what
 * regressions are found from, against a baseline, the last bench, or another bench on Compare.
 * One pass over that candidate's trials.
 */
export function candidateCheckOutcomes(db: Db, benchId: number, candidateId: number): CheckOutcomes {
  return checkOutcomes(trialFacts(db, benchId, candidateId), candidateId);
}

/**
 * The regressions that block each candidate: all of them, except those a confirm round resolved
 * (issue #16 §3): `cleared` (the failure did not reproduce in the rerun trials) or `flaky on
 * baseline` (the reference failed a rerun trial itself: with repeats that is no regression either).
 * The summary keeps every regression, so the page can show the resolved ones as such.
 */
const RESOLVED = new Set<string>(["cleared", "flaky on baseline"]);

async function gateBlockers(db: Db, benchId: number, regressions: Map<number, Regression[]>, refs: RegressionReferences): Promise<Map<number, Regression[]>> {
  // Without a confirm trial nothing can be cleared: skip parsing the broken checks.
  if (!db.$client.prepare("SELECT 1 FROM trials WHERE bench_id = ? AND rerun = 'confirm' LIMIT 1").get(benchId)) return regressions;
  const statuses = classifyBenchRegressions(db, benchId, regressions, refs);
  return new Map([...regressions].map(([id, list]) => [id, list.filter((_, i) => !RESOLVED.has(statuses.get(id)?.[i]?.status ?? "suspected"))]));
}

/** No rerun ever added trials to bench `benchId` (`rerun_base` is set when one does): every trial with checks counts in its results. */
function neverRerun(db: Db, benchId: number): boolean {
  return (db.$client.prepare("SELECT rerun_base AS b FROM benches WHERE id = ?").get(benchId) as { b: number } | undefined)?.b === 0;
}

/**
 * Computes summary and recommendation of a bench from its trials.
 * The reference of "the last bench of the same suite" is that bench's recommended candidate, else
 * its baseline, else its first candidate.
 */
export async function computeBenchResults(db: Db, benchId: number): Promise<{ summary: BenchSummary; recommendation: Recommendation }> {
  const bench = (await getBench(db, benchId))!;
  const ids = bench.candidates.map((c) => c.id);
  const stats = aggregateCandidates(ids, trialFacts(db, benchId));
  const baselineCandidateId =
    bench.baseline.kind === "candidate" ? (bench.candidates.find((c) => c.position === (bench.baseline as { position: number }).position)?.id ?? null) : null;
  // Each candidate's check outcomes take a pass over its trials: only read when compared.
  const outcomes = new Map<number, CheckOutcomes>();
  const outcomesOf = (id: number) => {
    let o = outcomes.get(id);
    if (!o) outcomes.set(id, (o = candidateCheckOutcomes(db, benchId, id)));
    return o;
  };

  const regressions = new Map<number, Regression[]>();
  const fixes = new Map<number, Fix[]>();
  if (baselineCandidateId !== null) {
    const base = outcomesOf(baselineCandidateId);
    for (const id of ids) {
      if (id === baselineCandidateId) continue;
      regressions.set(id, findRegressions(base, outcomesOf(id), "baseline"));
      fixes.set(id, findFixes(base, outcomesOf(id), "baseline"));
    }
  }
  // Every bench is also compared with the last finished bench of its prompt, whatever its baseline:
  // "none" only means no baseline candidate (it used to skip the check and headline "no regression").
  const referenceBenchId = await previousFinishedBench(db, bench.promptId, benchId);
  let referenceCandidateId: number | null = null;
  let lastBench: LastBenchReference | null = null;
  // Per-check tallies for the regression statuses, from the outcomes read here: valid for a bench no rerun added trials to (see KnownCheckTallies).
  const known: KnownCheckTallies = {};
  const noReruns = neverRerun(db, benchId);
  if (noReruns) {
    const tallies = new Map<number, ReturnType<typeof checkTalliesFromOutcomes>>();
    known.bench = (id) => {
      let t = tallies.get(id);
      if (!t) tallies.set(id, (t = checkTalliesFromOutcomes(outcomesOf(id).values())));
      return t;
    };
  }
  if (referenceBenchId !== null) {
    const prev = (await getBench(db, referenceBenchId))!;
    referenceCandidateId = prev.recommendation?.recommendedCandidateId ?? prev.summary?.baselineCandidateId ?? prev.candidates[0]?.id ?? null;
    if (referenceCandidateId !== null) {
      lastBench = {
        benchId: referenceBenchId,
        candidateLabel: prev.candidates.find((c) => c.id === referenceCandidateId)?.label ?? `candidate #${referenceCandidateId}`,
      };
      const ref = candidateCheckOutcomes(db, referenceBenchId, referenceCandidateId);
      if (neverRerun(db, referenceBenchId)) known.reference = checkTalliesFromOutcomes(ref.values());
      for (const id of ids) {
        regressions.set(id, mergeRegressions(regressions.get(id) ?? [], findRegressions(ref, outcomesOf(id), "last bench")));
        fixes.set(id, mergeRegressions(fixes.get(id) ?? [], findFixes(ref, outcomesOf(id), "last bench")));
      }
    }
  }
  // Regressions on criteria whose judge was not calibrated at launch are shown, but do not block (issue 18).
  const advisory = advisoryCheckKeys(bench.rubric);
  const blocking = new Map<number, Regression[]>();
  for (const [id, list] of regressions) {
    const { all, blocking: b } = markAdvisory(list, advisory);
    regressions.set(id, all);
    blocking.set(id, b);
  }
  // Of those, a suspected regression a confirm round cleared (issue 16 §3) does not block either.
  const blockers = await gateBlockers(db, benchId, blocking, { baselineCandidateId, referenceBenchId, referenceCandidateId });
  // Cost and latency against the baseline, and the gate limits they pass (issue #16 §4).
  // Case tallies, costs and latencies in one query: the trade-offs and the paired statistics read them (issue #16, speed).
  const figures = benchCaseFigures(db, benchId, { neverRerun: noReruns });
  const tradeoffs = baselineCandidateId !== null ? benchTradeoffs(db, benchId, baselineCandidateId, bench.candidates, figures) : new Map();
  const limits = new Map([...tradeoffs].map(([id, t]) => [id, gateLimitBlocks(t, bench.settings.gate)]));
  const finished = stats.reduce((n, s) => n + s.trials.done + s.trials.error, 0);
  const total = stats.reduce((n, s) => n + s.trials.total, 0);
  const recommendation = recommend(
    bench.candidates.map((c) => ({ id: c.id, label: c.label, stats: stats.find((s) => s.candidateId === c.id)! })),
    baselineCandidateId,
    blockers,
    { ...(bench.cancelRequestedAt != null ? { partial: { finished, total } } : {}), lastBench, fixes, limits },
  );
  recommendation.headline += advisoryNote(regressions.get(recommendation.recommendedCandidateId ?? -1) ?? []);
  const summary: BenchSummary = {
    candidates: stats.map((s) => ({ candidateId: s.candidateId, stats: s })),
    baselineCandidateId,
    referenceBenchId,
    referenceCandidateId,
    regressions: Object.fromEntries([...regressions].map(([k, v]) => [String(k), v])),
    fixes: Object.fromEntries([...fixes].map(([k, v]) => [String(k), v])),
    tradeoffs: Object.fromEntries([...tradeoffs].map(([k, v]) => [String(k), v])),
    retained: 0,
  };
  // The paired statistics, stored with the summary so the results page does not recompute them on every render (issue #16, speed).
  summary.evidence = await computeBenchEvidence(db, benchId, bench.candidates, summary, figures, known);
  // The flip table too: the results page then reads only the matrix rows it shows.
  if (baselineCandidateId !== null) summary.flips = storedFlips(flipTable(matrixRows(db, benchId), baselineCandidateId, ids));
  return { summary, recommendation };
}

/**
 * Per-candidate figures of a running bench from the trial count columns (no JSON parsing), so the
 * bench page stays fast while trials are written. Per-check rates (`byCheck`) come when it ends.
 */
export function liveCandidateStats(db: Db, benchId: number, candidateIds: number[]): import("@/lib/bench/aggregate").CandidateStats[] {
  const rows = db.$client
    .prepare(
      `SELECT candidate_id AS id, count(*) AS total, sum(status = 'done') AS done, sum(status = 'error') AS error, sum(status = 'skipped') AS skipped,
              sum(status IN ('queued', 'running')) AS pending, sum(passed_checks) AS passedChecks, sum(failed_checks) AS failedChecks,
              sum(unscored_checks) AS unscored, sum(error_checks) AS errorChecks, ${TRIAL_VERDICT_SUMS},
              coalesce(sum(input_tokens), 0) AS tin, coalesce(sum(output_tokens), 0) AS tout, sum(cost_usd) AS cost
       FROM trials t WHERE t.bench_id = ? AND ${IN_RESULTS} GROUP BY candidate_id`,
    )
    .all(benchId) as Record<string, number | null>[];
  const lat = db.$client.prepare("SELECT latency_ms AS l FROM trials WHERE bench_id = ? AND candidate_id = ? AND status = 'done' AND latency_ms IS NOT NULL");
  return candidateIds.map((id) => {
    const r = rows.find((x) => x.id === id) ?? {};
    const n = (k: string) => Number(r[k] ?? 0);
    const latencies = (lat.all(benchId, id) as { l: number }[]).map((x) => x.l);
    const rate = (p: number, s: number) => ({ passed: p, scored: s, rate: s ? p / s : null });
    return {
      candidateId: id,
      trials: { total: n("total"), done: n("done"), error: n("error"), skipped: n("skipped"), pending: n("pending") },
      checks: {
        scored: n("passedChecks") + n("failedChecks"),
        passed: n("passedChecks"),
        failed: n("failedChecks"),
        unscored: n("unscored"),
        error: n("errorChecks"),
      },
      passRate: rate(n("passedChecks"), n("passedChecks") + n("failedChecks")),
      trialPassRate: rate(n("passed"), n("scored")),
      trialsWithErrors: n("errors"),
      byCheck: {},
      tokens: { input: n("tin"), output: n("tout") },
      costUsd: r.cost == null ? null : Number(r.cost),
      latencyMs: { p50: percentile(latencies, 50), p95: percentile(latencies, 95) },
    };
  });
}
