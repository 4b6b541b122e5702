/**
 * Results of a bench, computed when it ends (and readable while it runs): per-candidate
 * statistics, regressions against the baseline and the last bench of the same prompt, the
 * recommendation, and the cases to retain for the next bench.
 */
import { and, count, eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../client";
import { first } from "../rows";
import { countWhere, rawRows } from "../dialect";
import { benchCases, benches, trials } from "../schema";
import { aggregateCandidates, checkOutcomes, percentile, type TrialFacts } from "@/lib/bench/aggregate";
import {
  findFixes,
  findRegressions,
  mergeRegressions,
  recommend,
  type Fix,
  type LastBenchReference,
  type PartialRun,
  type Recommendation,
  type Regression,
} from "@/lib/bench/recommend";
import type { CheckRecord } from "@/lib/bench/types";
import { getBench, previousFinishedBench, type BenchSummary } from "./benches";
import { matrixRows, sumOf, TRIAL_VERDICT_SUMS } from "./bench-matrix";
import { flipTable, resolvedFlipCases, storedFlips } from "@/lib/bench/evidence/flips";
import { IN_RESULTS } from "./rerun-sql";
import { classifyBenchRegressions, type KnownCheckTallies, type RegressionReferences } from "./regression-statuses";
import { humanOverlaySql, parseHumanOverlay } from "./human-verdicts";
import { applyHumanVerdicts } from "@/lib/review/overlay";
import { advisoryCheckKeys, advisoryNote, markAdvisory } from "@/lib/review/advisory";
import { benchTradeoffs } from "./bench-costs";
import { budgetSkippedInResults } from "./bench-budget";
import { computeBenchEvidence } from "./bench-evidence";
import { benchCaseFigures } from "./bench-tallies";
import { gateLimitBlocks } from "@/lib/bench/stats/gate-limits";
import { checkTalliesFromOutcomes } from "@/lib/bench/stats/tallies";

/** Check outcomes of one candidate (see `checkOutcomes`). */
type CheckOutcomes = ReturnType<typeof checkOutcomes>;

/**
 * Trial facts of a bench (optionally one candidate), with checks parsed down to what aggregation
 * reads (key, label, kind, verdict, priority, a judge's usage; not messages, scores or details).
 * @returns the trials read in one query, as an iterable that parses one trial's checks at a time
 *   while it is iterated (it may be iterated more than once): a bench's results are computed over
 *   all its trials, and holding them all parsed at once made the worker's memory grow with the
 *   bench's size (issue #5); the rows hold the checks' JSON text only.
 */
export async function trialFacts(db: Db, benchId: number, candidateId?: number): Promise<Iterable<TrialFacts>> {
  // Raw SQL from drizzle fragments: drizzle's per-field row mapping over every trial of a large bench
  // cost a quarter more CPU at finalize (issue #16's time budget). Values are the same on both stores.
  const rows = await rawRows<Omit<TrialFacts, "checks"> & { checks: string | null; human: string | null }>(
    db,
    sql`SELECT ${trials.candidateId} AS "candidateId", ${benchCases.caseRevisionId} AS "caseRevisionId", ${benchCases.caseKey} AS "caseKey",
           ${trials.repeat} AS "repeat", ${trials.status} AS "status", ${trials.checks} AS "checks", ${trials.inputTokens} AS "inputTokens",
           ${trials.outputTokens} AS "outputTokens", ${trials.costUsd} AS "costUsd", ${trials.latencyMs} AS "latencyMs", ${humanOverlaySql(db)} AS "human"
        FROM ${trials} JOIN ${benchCases} ON ${benchCases.id} = ${trials.benchCaseId}
        WHERE ${trials.benchId} = ${benchId} ${candidateId ? sql`AND ${trials.candidateId} = ${candidateId}` : sql``} AND ${IN_RESULTS}`,
  );
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
      for (const { human, ...r } of rows) {
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
export async function candidateCheckOutcomes(db: Db, benchId: number, candidateId: number): Promise<CheckOutcomes> {
  return checkOutcomes(await trialFacts(db, benchId, candidateId), candidateId);
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
  const confirm = await first(
    db
      .select({ id: trials.id })
      .from(trials)
      .where(and(eq(trials.benchId, benchId), eq(trials.rerun, "confirm")))
      .limit(1),
  );
  if (!confirm) return regressions;
  const statuses = await classifyBenchRegressions(db, benchId, regressions, refs);
  return new Map([...regressions].map(([id, list]) => [id, list.filter((_, i) => !RESOLVED.has(statuses.get(id)?.[i]?.status ?? "suspected"))]));
}

/** The recommendation's `partial` context: a cancelled launched run, or trials the spend cap kept from starting (issue #16). */
function partialRun(cancelled: boolean, finished: number, total: number, budgetSkipped: number): { partial?: PartialRun } {
  if (budgetSkipped > 0) return { partial: { finished, total, budgetSkipped } };
  return cancelled ? { partial: { finished, total } } : {};
}

/** How many cases bench `benchId` included (its manifest's included rows). */
async function includedCases(db: Db, benchId: number): Promise<number> {
  const r = await first(
    db
      .select({ n: count() })
      .from(benchCases)
      .where(and(eq(benchCases.benchId, benchId), eq(benchCases.included, true))),
  );
  return r?.n ?? 0;
}

/** No rerun ever added trials to bench `benchId` (`rerun_base` is set when one does): every trial with checks counts in its results. */
async function neverRerun(db: Db, benchId: number): Promise<boolean> {
  return (await first(db.select({ b: benches.rerunBase }).from(benches).where(eq(benches.id, benchId))))?.b === 0;
}

/**
 * Computes summary and recommendation of a bench from its trials.
 * The reference of "the last bench of the same suite" is that bench's recommended candidate, else
 * its baseline, else its first candidate.
 */
export async function computeBenchResults(db: Db, benchId: number): Promise<{ summary: BenchSummary; recommendation: Recommendation }> {
  const bench = (await getBench(db, benchId))!;
  const ids = bench.candidates.map((c) => c.id);
  const stats = aggregateCandidates(ids, await trialFacts(db, benchId));
  const baselineCandidateId =
    bench.baseline.kind === "candidate" ? (bench.candidates.find((c) => c.position === (bench.baseline as { position: number }).position)?.id ?? null) : null;
  // Each candidate's check outcomes take a pass over its trials: only read when compared.
  const outcomes = new Map<number, CheckOutcomes>();
  const outcomesOf = async (id: number) => {
    let o = outcomes.get(id);
    if (!o) outcomes.set(id, (o = await candidateCheckOutcomes(db, benchId, id)));
    return o;
  };

  const regressions = new Map<number, Regression[]>();
  const fixes = new Map<number, Fix[]>();
  if (baselineCandidateId !== null) {
    const base = await outcomesOf(baselineCandidateId);
    for (const id of ids) {
      if (id === baselineCandidateId) continue;
      const own = await outcomesOf(id);
      regressions.set(id, findRegressions(base, own, "baseline"));
      fixes.set(id, findFixes(base, own, "baseline"));
    }
  }
  // Every bench is also compared with the last finished bench of its prompt, whatever its baseline:
  // "none" only means no baseline candidate (it used to skip the check and headline "no regression").
  const referenceBenchId = await previousFinishedBench(db, bench.promptId, benchId);
  let referenceCandidateId: number | null = null;
  let lastBench: LastBenchReference | null = null;
  // Per-check tallies for the regression statuses, from the outcomes read here: valid for a bench no rerun added trials to (see KnownCheckTallies).
  const known: KnownCheckTallies = {};
  const noReruns = await neverRerun(db, benchId);
  if (noReruns) {
    const tallies = new Map<number, ReturnType<typeof checkTalliesFromOutcomes>>();
    known.bench = async (id) => {
      let t = tallies.get(id);
      if (!t) tallies.set(id, (t = checkTalliesFromOutcomes((await outcomesOf(id)).values())));
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
      const ref = await candidateCheckOutcomes(db, referenceBenchId, referenceCandidateId);
      if (await neverRerun(db, referenceBenchId)) known.reference = checkTalliesFromOutcomes(ref.values());
      for (const id of ids) {
        const own = await outcomesOf(id);
        regressions.set(id, mergeRegressions(regressions.get(id) ?? [], findRegressions(ref, own, "last bench")));
        fixes.set(id, mergeRegressions(fixes.get(id) ?? [], findFixes(ref, own, "last bench")));
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
  const figures = await benchCaseFigures(db, benchId, { neverRerun: noReruns });
  const tradeoffs = baselineCandidateId !== null ? await benchTradeoffs(db, benchId, baselineCandidateId, bench.candidates, figures) : new Map();
  const limits = new Map([...tradeoffs].map(([id, t]) => [id, gateLimitBlocks(t, bench.settings.gate)]));
  const finished = stats.reduce((n, s) => n + s.trials.done + s.trials.error, 0);
  const total = stats.reduce((n, s) => n + s.trials.total, 0);
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
  // Before the recommendation: a partial bench's headline says how many cases each comparison covers.
  summary.evidence = await computeBenchEvidence(db, benchId, bench.candidates, summary, figures, known, bench.settings.repeats);
  // A cancel asked during a rerun cancelled only the rerun's trials (lib/bench/end-status.ts): the bench is not partial.
  const partial = partialRun(bench.cancelRequestedAt != null && noReruns, finished, total, await budgetSkippedInResults(db, benchId));
  if (partial.partial) {
    partial.partial.cases = await includedCases(db, benchId);
    partial.partial.coverage = bench.candidates.flatMap((c) =>
      (summary.evidence?.[String(c.id)]?.comparisons ?? []).map((x) => ({
        label: c.label,
        against: x.against,
        ...(x.against === "last" ? { againstBenchId: x.againstBenchId } : {}),
        n: x.n,
      })),
    );
  }
  const recommendation = recommend(
    bench.candidates.map((c) => ({ id: c.id, label: c.label, stats: stats.find((s) => s.candidateId === c.id)! })),
    baselineCandidateId,
    blockers,
    { ...partial, lastBench, fixes, limits },
  );
  recommendation.headline += advisoryNote(regressions.get(recommendation.recommendedCandidateId ?? -1) ?? []);
  // The flip table too: the results page then reads only the matrix rows it shows.
  // A case whose regressions a confirm round cleared is listed as cleared, not regressed (issue #16).
  if (baselineCandidateId !== null)
    summary.flips = storedFlips(flipTable(await matrixRows(db, benchId), baselineCandidateId, ids, resolvedFlipCases(summary.regressions, summary.evidence)));
  return { summary, recommendation };
}

/**
 * Per-candidate figures of a running bench from the trial count columns (no JSON parsing), so the
 * bench page stays fast while trials are written. Per-check rates (`byCheck`) come when it ends.
 */
export async function liveCandidateStats(db: Db, benchId: number, candidateIds: number[]): Promise<import("@/lib/bench/aggregate").CandidateStats[]> {
  const rows: Record<string, number | null>[] = await db
    .select({
      id: trials.candidateId,
      total: count(),
      done: countWhere(sql`${trials.status} = 'done'`),
      error: countWhere(sql`${trials.status} = 'error'`),
      skipped: countWhere(sql`${trials.status} = 'skipped'`),
      pending: countWhere(sql`${trials.status} IN ('queued', 'running')`),
      passedChecks: sumOf(trials.passedChecks),
      failedChecks: sumOf(trials.failedChecks),
      unscored: sumOf(trials.unscoredChecks),
      errorChecks: sumOf(trials.errorChecks),
      ...TRIAL_VERDICT_SUMS,
      tin: sumOf(trials.inputTokens),
      tout: sumOf(trials.outputTokens),
      cost: sql<number | null>`sum(${trials.costUsd})`.mapWith(Number),
    })
    .from(trials)
    .where(and(eq(trials.benchId, benchId), IN_RESULTS))
    .groupBy(trials.candidateId);
  const latenciesOf = async (id: number) =>
    (
      await db
        .select({ l: trials.latencyMs })
        .from(trials)
        .where(and(eq(trials.benchId, benchId), eq(trials.candidateId, id), eq(trials.status, "done"), isNotNull(trials.latencyMs)))
    ).map((x) => x.l!);
  const latencyLists = await Promise.all(candidateIds.map(latenciesOf));
  return candidateIds.map((id, i) => {
    const r = rows.find((x) => x.id === id) ?? {};
    const n = (k: string) => Number(r[k] ?? 0);
    const latencies = latencyLists[i];
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
