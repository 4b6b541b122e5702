/**
 * Reruns inside a finished bench (issue #16 §3), shared by the results page's actions and
 * `benchwork bench run --confirm / --rerun-errors`:
 * - confirm suspected regressions: new trials of just the suspected cases, for the candidate and
 *   the baseline, with the bench's pinned revisions, rubric and settings (they are the bench's);
 * - rerun errored trials: one new trial per errored one, linked to it (the errored one is kept).
 * Both first plan (trials, calls and tokens — the New bench estimate over just those trials — and
 * the cost, from what this bench measured per candidate and case),
 * then add the trials and reopen the bench; the worker runs them and finalizes it again, which
 * recomputes the summary, the statuses and the recommendation.
 */
import type { Db } from "@/db/client";
import { prepareTrialJobs } from "./trial-jobs";
import type { Author } from "@/lib/audit/author";
import { getBench, type BenchDetail } from "@/db/queries/benches";
import { addRerunTrials, benchCaseCosts, benchCaseIdsByRevision, benchErroredTrials, benchSideTrials } from "@/db/queries/bench-reruns";
import { caseRevisionReader } from "@/db/queries/cases";
import { getPromptRevision } from "@/db/queries/prompt-revisions";
import { planBench } from "@/lib/bench/plan";
import { confirmTrials, errorRerunTrials, rerunRefusal, type RerunTrial } from "@/lib/bench/rerun/select";
import type { CandidateSpec, SuppliedCase } from "@/lib/bench/types";
import type { CaseSource } from "@/lib/library/case-content";
import { LibraryError } from "@/lib/library/errors";
import type { CandidateEvidence } from "./comparisons";
import { suspectedOf } from "./rerun-offers";
import { benchSpentSoFar, raiseSpendCapTx } from "@/db/queries/bench-budget";
import { rerunCost, type RerunCostFrom } from "@/lib/bench/rerun/cost";
import { RerunSpendCapError, rerunSpendCap, rerunSpendCapRefusal, type RerunSpendCap } from "@/lib/bench/rerun/spend-cap";

// The results page's offers live apart (they do not plan: no runtime or model code on the page's server render).
export { rerunOffers, type RerunOffer, type ResolvedRegression } from "./rerun-offers";

/** What a rerun will run and cost, before it runs. */
export interface RerunPlan {
  benchId: number;
  kind: "confirm" | "errors";
  /** The trials it adds. */
  trials: RerunTrial[];
  /** Per candidate (bench order): its label and how many trials it gets. */
  perCandidate: { candidateId: number; label: string; trials: number }[];
  /** The case IDs it reruns. */
  caseKeys: string[];
  /** Suspected regressions it tries to confirm or clear (confirm), or errored trials it reruns (errors). */
  targets: number;
  /** Of `targets`, those that block a recommendation: a confirm's suspected regressions not on an advisory criterion (errors: all). */
  blockingTargets: number;
  /** Confirm: the regressions it leaves out as deterministic replays (a rerun replays the same answers); errors: 0. */
  deterministic: number;
  /** Calls to candidate models (an upper bound when a trial exposes tools: see `modelCallsUpperBound`). */
  modelCalls: number;
  modelCallsUpperBound: boolean;
  judgeCalls: number;
  /**
   * Tokens: the plan's estimate (upper bounds). `costUsd`: what this bench measured — each trial at
   * what its candidate's finished trials of that case cost, else its candidate's mean cost per
   * finished trial, the plan's figure only for a candidate with no finished trial (`costFrom`
   * counts each); null when a model has no prices.
   */
  estimate: { inputTokens: number; outputTokens: number; costUsd: number | null; costFrom: RerunCostFrom };
  /** The bench's spend cap as this rerun meets it (what is left, whether it stops it, the cap it needs); null without a cap. */
  spendCap: RerunSpendCap | null;
}

const side = (m: Map<string, { count: number; maxRepeat: number }>) => (c: number, bc: number) => m.get(`${c}|${bc}`) ?? { count: 0, maxRepeat: 0 };

/** The bench, or LibraryError `not_found`. */
async function benchOrThrow(db: Db, benchId: number): Promise<BenchDetail> {
  const bench = await getBench(db, benchId);
  if (!bench) throw new LibraryError("not_found", `Bench #${benchId} does not exist.`);
  return bench;
}

/**
 * The calls, tokens and cost of `trials`: the New bench plan (`planBench`) over just those cases,
 * per candidate and number of added trials, summed; the cost per trial at its candidate's measured
 * cost on that case or mean cost per finished trial (the plan's only for a candidate with none, see lib/bench/rerun/cost).
 */
async function estimate(
  db: Db,
  bench: BenchDetail,
  trials: readonly RerunTrial[],
): Promise<Omit<RerunPlan, "benchId" | "kind" | "trials" | "targets" | "blockingTargets" | "deterministic">> {
  // The cap is the bench's: what its earlier trials spent counts against it (issue #16: a capped bench's confirm looped).
  const positionOf = new Map(bench.candidates.map((c) => [c.id, c.position]));
  const spent = await benchSpentSoFar(db, bench.id);
  const spendCap = rerunSpendCap(
    bench.settings.spendCap,
    spent,
    trials.length,
    trials.map((t) => positionOf.get(t.candidateId) ?? -1),
  );
  const cases = new Map([...(await benchCaseIdsByRevision(db, bench.id))].map(([rev, c]) => [c.benchCaseId, { ...c, rev }]));
  const content = caseRevisionReader(db);
  // candidate → repeats → bench cases
  const groups = new Map<number, Map<number, number[]>>();
  const per = new Map<number, Map<number, number>>();
  for (const t of trials) {
    let m = per.get(t.candidateId);
    if (!m) per.set(t.candidateId, (m = new Map()));
    m.set(t.benchCaseId, (m.get(t.benchCaseId) ?? 0) + 1);
  }
  for (const [cand, m] of per)
    for (const [bc, n] of m) {
      let g = groups.get(cand);
      if (!g) groups.set(cand, (g = new Map()));
      // Pushed, not copied: a confirm round of a large bench has thousands of cases per group.
      let list = g.get(n);
      if (!list) g.set(n, (list = []));
      list.push(bc);
    }
  const out = {
    modelCalls: 0,
    modelCallsUpperBound: false,
    judgeCalls: 0,
    tokens: { inputTokens: 0, outputTokens: 0 },
  };
  // The plan's cost of each candidate's rerun trials: used only for a candidate with no finished trial.
  const plannedUsd = new Map<number, number | null>();
  for (const [candId, byRepeats] of groups) {
    const cand = bench.candidates.find((c) => c.id === candId)!;
    let spec: CandidateSpec;
    if (cand.kind === "recorded") spec = { kind: "recorded", label: cand.label, recordedName: cand.recordedName! };
    else {
      const rev = cand.promptRevisionId ? await getPromptRevision(db, cand.promptRevisionId) : null;
      if (!rev || !cand.modelConfig) throw new LibraryError("not_found", `Candidate ${cand.label}: its pinned prompt revision or model is missing.`);
      spec = {
        kind: "model",
        label: cand.label,
        model: cand.modelConfig,
        promptRevision: { id: rev.id, number: rev.number, systemPrompt: rev.systemPrompt, tools: rev.tools, modelSettings: rev.modelSettings },
      };
    }
    for (const [repeats, benchCaseIds] of byRepeats) {
      const supplied: SuppliedCase[] = [];
      for (const bc of benchCaseIds) {
        const c = cases.get(bc)!;
        supplied.push({
          caseId: c.caseId,
          caseKey: c.caseKey,
          caseRevisionId: c.rev,
          source: c.source as CaseSource,
          status: "active",
          content: (await content(c.rev))!,
        });
      }
      const p = planBench(supplied, [spec], {
        budget: null,
        repeats,
        criteriaCount: bench.rubric.length,
        judge: bench.judge,
        maxSteps: bench.settings.maxSteps,
        defaultCheckCount: bench.settings.defaultChecks?.length ?? 0,
      });
      out.modelCalls += p.modelCalls;
      out.modelCallsUpperBound ||= p.modelCallsUpperBound;
      out.judgeCalls += p.judgeCalls;
      out.tokens.inputTokens += p.estimate.inputTokens;
      out.tokens.outputTokens += p.estimate.outputTokens;
      const had = plannedUsd.has(candId) ? plannedUsd.get(candId)! : 0;
      plannedUsd.set(candId, had === null || p.estimate.costUsd === null ? null : had + p.estimate.costUsd);
    }
  }
  const perCandidate = bench.candidates
    .filter((c) => per.has(c.id))
    .map((c) => ({ candidateId: c.id, label: c.label, trials: [...per.get(c.id)!.values()].reduce((a, b) => a + b, 0) }));
  // One cost for the rerun, from what this bench measured (issue #16 §3): the dialog, the CLI and the JSON show it.
  const caseCosts = await benchCaseCosts(db, bench.id);
  const modelUsd = new Map<number, number>();
  for (const [k, v] of caseCosts) {
    const c = Number(k.split("|")[0]);
    modelUsd.set(c, (modelUsd.get(c) ?? 0) + v.allUsd);
  }
  const spentOf = new Map(spent.candidates.map((c) => [c.id, c]));
  const candidateCosts = new Map(
    perCandidate.map((c) => {
      const planned = plannedUsd.get(c.candidateId) ?? null;
      return [
        c.candidateId,
        {
          plannedPerTrialUsd: planned === null ? null : planned / c.trials,
          spentUsd: spentOf.get(c.candidateId)?.spentUsd ?? 0,
          spentTrials: spentOf.get(c.candidateId)?.spentTrials ?? 0,
          modelUsd: modelUsd.get(c.candidateId) ?? 0,
        },
      ];
    }),
  );
  const cost = rerunCost(trials, candidateCosts, caseCosts);
  const { tokens, ...calls } = out;
  const caseKeys = [...new Set(trials.map((t) => cases.get(t.benchCaseId)?.caseKey ?? `#${t.benchCaseId}`))];
  // The cap's "raise it to at least" is split into spent + this cost + its safety margin (one figure for the rerun).
  return {
    ...calls,
    estimate: { ...tokens, ...cost },
    perCandidate,
    caseKeys,
    spendCap: spendCap && { ...spendCap, rerunCostUsd: cost.costUsd },
  };
}

/**
 * Plans the confirm round of a finished bench: for each case with a suspected regression, as many
 * new trials per side as the bench ran per case (at least 3 in all per side), for the candidate
 * and — against the baseline — the baseline. Regressions that are deterministic replays are left
 * out (counted in `deterministic`): a rerun replays the same answers.
 * @param known the bench and its evidence as the caller already read them (the results page)
 * @throws LibraryError `not_found` (no such bench), `not_allowed` (queued or running, cancelled or
 *   failed, or nothing suspected — when only deterministic replays, the message says so), with a message for the user
 */
export async function planConfirm(db: Db, benchId: number, known?: { bench: BenchDetail; evidence: CandidateEvidence[] | null }): Promise<RerunPlan> {
  const bench = known?.bench.id === benchId ? known.bench : await benchOrThrow(db, benchId);
  const { suspected, deterministic } = await suspectedOf(db, bench, known?.evidence);
  const refusal = rerunRefusal(bench, "confirm", suspected.length, deterministic);
  if (refusal) throw new LibraryError("not_allowed", refusal);
  const trials = confirmTrials({
    repeats: bench.settings.repeats,
    baselineCandidateId: bench.summary?.baselineCandidateId ?? null,
    suspected,
    existing: side(await benchSideTrials(db, benchId)),
  });
  const blockingTargets = suspected.filter((r) => !r.advisory).length;
  return { benchId, kind: "confirm", trials, targets: suspected.length, blockingTargets, deterministic, ...(await estimate(db, bench, trials)) };
}

/**
 * Plans rerunning the errored trials of a finished bench that no trial reruns yet.
 * @param known the bench as the caller already read it (the results page)
 * @throws LibraryError as {@link planConfirm} (nothing errored, or every error already rerun)
 */
export async function planErrorRerun(db: Db, benchId: number, known?: BenchDetail): Promise<RerunPlan> {
  const bench = known?.id === benchId ? known : await benchOrThrow(db, benchId);
  const { errored, rerunAlready } = await benchErroredTrials(db, benchId);
  // Refused before reading the repeats of every case (the results page asks on every render).
  const refusal = rerunRefusal(bench, "errors", errored.filter((t) => !rerunAlready.has(t.id)).length);
  if (refusal) throw new LibraryError("not_allowed", refusal);
  const trials = errorRerunTrials(errored, rerunAlready, side(await benchSideTrials(db, benchId)));
  return { benchId, kind: "errors", trials, targets: trials.length, blockingTargets: trials.length, deterministic: 0, ...(await estimate(db, bench, trials)) };
}

/**
 * Plans and starts a rerun: adds its trials to the bench and reopens it for the worker (one
 * transaction, which refuses a bench that stopped being finished meanwhile).
 * @param author who started it, recorded as a `bench.rerun` activity row (none without one)
 * @param env `BENCHWORK_PROVIDER_CONCURRENCY` for the rerun's jobs on PostgreSQL
 * @param opts.spendCapUsd the bench's spend cap raised to this (USD) for the rerun, with its trials
 * @returns the plan that was started
 * @throws LibraryError as {@link planConfirm} / {@link planErrorRerun}; `not_allowed` when the spend
 *   cap (raised or not) would stop the rerun, naming what was spent and the cap it needs, or when
 *   `spendCapUsd` would lower the cap or the bench has none
 */
export async function startRerun(
  db: Db,
  benchId: number,
  kind: "confirm" | "errors",
  author?: Author | null,
  env: Record<string, string | undefined> = {},
  opts: { spendCapUsd?: number } = {},
): Promise<RerunPlan> {
  const plan = kind === "confirm" ? await planConfirm(db, benchId) : await planErrorRerun(db, benchId);
  // A rerun the cap would stop is refused, not started to have its trials skipped as "budget" at once (issue #16).
  const capRefusal = rerunSpendCapRefusal(plan.spendCap, opts.spendCapUsd);
  if (capRefusal) throw new RerunSpendCapError(capRefusal, opts.spendCapUsd === undefined ? undefined : { spendCapUsd: capRefusal });
  // The rerun's trials are enqueued in the transaction that adds them (server/bench/trial-jobs.ts).
  const bench = await benchOrThrow(db, benchId);
  const onQueued = await prepareTrialJobs(db, benchId, bench.candidates, bench.settings.concurrency, env);
  const raise = opts.spendCapUsd;
  // The raised cap commits with the rerun's trials: a refused rerun leaves the cap as it was.
  const inTx =
    raise === undefined
      ? onQueued
      : async (tx: Parameters<typeof onQueued>[0], id: number) => {
          await raiseSpendCapTx(tx, id, raise);
          await onQueued(tx, id);
        };
  await addRerunTrials(db, benchId, plan.trials, author, kind === "confirm" ? "confirm suspected regressions" : "rerun errored trials", inTx);
  return plan;
}

/** How many case IDs a plan's summary names (the confirm dialog names 5, then "and N more"). */
const SUMMARY_CASE_KEYS = 5;

/**
 * A rerun's plan without its trial list, and with its first case IDs only (what the results page
 * sends to the browser: a confirm round of a large bench has thousands of cases).
 */
export type RerunPlanSummary = Omit<RerunPlan, "trials"> & { trialCount: number; caseCount: number };

const summarize = ({ trials, caseKeys, ...rest }: RerunPlan): RerunPlanSummary => ({
  ...rest,
  caseKeys: caseKeys.slice(0, SUMMARY_CASE_KEYS),
  caseCount: caseKeys.length,
  trialCount: trials.length,
});

/**
 * The plan of a rerun as the results page's confirm dialog shows it, computed when the dialog
 * opens (not on each render: on a large bench the confirm round's estimate covers thousands of cases).
 * @throws LibraryError as {@link planConfirm} / {@link planErrorRerun}
 */
export async function planRerunSummary(db: Db, benchId: number, kind: "confirm" | "errors"): Promise<RerunPlanSummary> {
  return summarize(kind === "confirm" ? await planConfirm(db, benchId) : await planErrorRerun(db, benchId));
}
