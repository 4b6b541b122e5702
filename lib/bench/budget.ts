/**
 * The spend cap of a bench (issue #16 §4), pure: how many more trials may start so that what was
 * spent plus what the running trials are estimated to cost never passes the cap, and the reason a
 * trial that could not start is skipped with. The queue applies it inside its claim transaction
 * (db/queries/trial-queue.ts), so several workers and any concurrency share one cap.
 */
import type { TrialOutcome } from "./queue";

/** The stored reason of a trial skipped by the spend cap starts with this word (matrix, counts and JSON show "budget"). */
export const BUDGET_SKIP = "budget";

/** The spend cap a bench runs under, stored in its settings. Amounts in USD. */
export interface SpendCap {
  /** The hard cap the user set. */
  usd: number;
  /** What one trial is expected to cost (the plan's estimate divided by its trials): the bench's mean, shown before launch. */
  trialEstimateUsd: number;
  /**
   * Per candidate, by its position: the plan's cost of one of its trials (its model calls and the
   * judge's share), what its running trials count for. Absent on benches launched before it existed:
   * their candidates count at `trialEstimateUsd` (or the bench's mean cost, when higher).
   */
  candidateTrialUsd?: number[];
  /**
   * Set while a rerun that raised the cap runs (issue #16): the cap before the raise and what the
   * bench had spent then. When the rerun is cancelled having spent nothing, the cap goes back to
   * `fromUsd`; either way this is removed when the rerun ends (see rerun/spend-cap's capAfterRerun).
   */
  raisedForRerun?: { fromUsd: number; spentUsd: number };
  /**
   * Set once a raise for a rerun stayed (the rerun spent under it): the cap the bench ran under
   * before its first such raise, which the launched run's budget skips were made under.
   */
  raisedFromUsd?: number;
}

/** One candidate of a capped bench as the claim reads it: what its finished trials spent and how many of its trials are running. */
export interface CandidateSpend {
  /** The candidate's position in the bench (0-based). */
  position: number;
  /** USD spent by its finished trials, and how many of them answered (bench_candidates.spent_usd, spent_trials). */
  spentUsd: number;
  spentTrials: number;
  /** USD of its dearest finished trial (bench_candidates.max_trial_usd); absent or 0 when not stored (its mean stands in). */
  maxTrialUsd?: number;
  /** Its trials claimed and not finished. */
  running: number;
}

/**
 * The plan's per-trial cost: its estimated cost (model and judge calls, upper bounds) over its trials.
 * @returns USD per trial; null when the plan could not price the bench (a model without prices)
 */
export function trialCostEstimate(plan: { trialCount: number; estimate: { costUsd: number | null } }): number | null {
  if (plan.estimate.costUsd === null) return null;
  return plan.trialCount > 0 ? plan.estimate.costUsd / plan.trialCount : 0;
}

/** The reason stored on a trial the cap kept from starting, e.g. "budget: the spend cap of $0.50 would be passed ($0.48 spent)". */
export function budgetSkipReason(capUsd: number, spentUsd: number): string {
  return `${BUDGET_SKIP}: the spend cap of ${usd(capUsd)} would be passed (${usd(spentUsd)} spent)`;
}

/** Whether a skipped trial's reason says the spend cap kept it from starting. */
export function isBudgetSkip(reason: string | null | undefined): boolean {
  return reason != null && (reason === BUDGET_SKIP || reason.startsWith(`${BUDGET_SKIP}:`));
}

/** An amount in USD as people read it: $0.0042, $1.25, $1,234.00. */
export function usd(v: number): string {
  if (v !== 0 && Math.abs(v) < 0.01) return `$${v.toPrecision(2)}`;
  return `$${v.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/**
 * How many more trials may start under the cap.
 * A trial starts only when spent + (running + starting) × estimate stays within the cap. Spending
 * only grows, so once spent + one estimate passes the cap no trial can start again: `exhausted`,
 * and the queued ones are skipped at once (the running ones still finish and count).
 * @param s amounts in USD; `running` trials of the bench that are claimed and not finished
 * @returns `startable` (0 or more; Infinity when a trial is estimated to cost nothing) and `exhausted`
 */
export function budgetAllowance(s: { capUsd: number; spentUsd: number; running: number; trialEstimateUsd: number }): {
  startable: number;
  exhausted: boolean;
} {
  // A float sum of many small costs lands a hair above an exact cap: within a millionth of a cent counts as within.
  const EPS = 1e-9;
  if (s.spentUsd + s.trialEstimateUsd > s.capUsd + EPS) return { startable: 0, exhausted: true };
  if (s.trialEstimateUsd <= 0) return { startable: Infinity, exhausted: false };
  const fit = Math.floor((s.capUsd - s.spentUsd) / s.trialEstimateUsd + EPS);
  return { startable: Math.max(0, fit - s.running), exhausted: false };
}

/**
 * What a running trial counts for: the plan's estimate, or the mean cost of the trials that
 * finished so far when that is higher (the plan's token counts are estimates: a real cost above
 * them would otherwise let the running trials pass the cap).
 * @param planUsd the plan's cost per trial; `spent` USD spent by `spentTrials` finished trials
 */
export function inFlightEstimate(planUsd: number, spent: { spentUsd: number; spentTrials: number }): number {
  return spent.spentTrials > 0 ? Math.max(planUsd, spent.spentUsd / spent.spentTrials) : planUsd;
}

/**
 * What a running trial of each candidate counts for (USD, in the order of `candidates`): the plan's
 * cost of one of that candidate's trials, or that candidate's DEAREST finished trial when higher
 * (a hard cap must hold for the worst trial it has seen: a candidate whose cost varies by case —
 * a short answer on most cases, a long one on some — would otherwise count at a mean the cheap
 * trials pull under the dear ones, and dear trials keep starting past the cap). Without a stored
 * dearest (`maxTrialUsd` 0 or absent: trials finished before it was stored) its mean cost per
 * finished trial stands in. A candidate none of whose trials has finished yet counts at its plan's
 * figure scaled by how far the other candidates' finished trials ran over theirs (real answers
 * longer than the plan's token estimate make every candidate dearer, not only the one that answered
 * first). A bench launched before per-candidate figures were stored counts each candidate at the
 * bench's figure (its plan's mean, or the bench's mean cost per finished trial when higher).
 * @param bench what the whole bench spent (benches.spent_usd, spent_trials)
 * @param candidates each candidate's spend (bench_candidates.spent_usd, spent_trials, max_trial_usd)
 */
export function candidateEstimates(cap: SpendCap, bench: { spentUsd: number; spentTrials: number }, candidates: CandidateSpend[]): number[] {
  const fallback = inFlightEstimate(cap.trialEstimateUsd, bench);
  const plans = candidates.map((c) => cap.candidateTrialUsd?.[c.position] ?? fallback);
  let planned = 0;
  let spent = 0;
  candidates.forEach((c, i) => {
    planned += c.spentTrials * plans[i];
    spent += c.spentUsd;
  });
  const over = planned > 0 ? Math.max(1, spent / planned) : 1;
  return candidates.map((c, i) => (c.spentTrials > 0 ? Math.max(inFlightEstimate(plans[i], c), c.maxTrialUsd ?? 0) : plans[i] * over));
}

/**
 * How many more trials of a bench whose candidates differ in price may start under its cap (the
 * claim's rule on both stores). The running trials count at their own candidate's estimate
 * ({@link candidateEstimates}); a trial about to start counts at the dearest candidate's, because a
 * lane's claim cannot choose which candidate's job it gets next: so spent + Σ running + every new
 * trial stays within the cap whichever candidates start. The price of that simplicity: near the cap
 * a cheap trial that would still fit is not started once the dearest one no longer fits (up to one
 * dearest trial's cost of the cap stays unspent). Spending only grows, so once spent + the dearest
 * estimate passes the cap no trial can start again: `exhausted`.
 * @param bench what the whole bench spent (USD) and how many of its trials answered
 * @param candidates every candidate of the bench (none: the bench's single figure, as before)
 * @returns `startable` (Infinity when no trial is estimated to cost anything), `exhausted`, and
 *   `runningUsd` (what the running trials count for) and `dearestUsd` (what a new trial counts for)
 */
export function capAllowance(
  cap: SpendCap,
  bench: { spentUsd: number; spentTrials: number },
  candidates: CandidateSpend[],
): { startable: number; exhausted: boolean; runningUsd: number; dearestUsd: number } {
  const EPS = 1e-9;
  const est = candidateEstimates(cap, bench, candidates);
  const dearestUsd = est.length ? Math.max(...est) : inFlightEstimate(cap.trialEstimateUsd, bench);
  const runningUsd = candidates.reduce((a, c, i) => a + c.running * est[i], 0);
  if (bench.spentUsd + dearestUsd > cap.usd + EPS) return { startable: 0, exhausted: true, runningUsd, dearestUsd };
  if (dearestUsd <= 0) return { startable: Infinity, exhausted: false, runningUsd, dearestUsd };
  const fit = Math.floor((cap.usd - bench.spentUsd - runningUsd) / dearestUsd + EPS);
  return { startable: Math.max(0, fit), exhausted: false, runningUsd, dearestUsd };
}

/** What a finished trial spent in USD: its candidate's calls and its judge's (unknown prices count 0). */
export function outcomeSpend(o: Pick<TrialOutcome, "costUsd" | "checks">): number {
  let total = o.costUsd ?? 0;
  for (const c of o.checks ?? []) total += c.usage?.costUsd ?? 0;
  return total;
}

/**
 * The closing line of `bench run` on trials the cap kept from starting, naming the cap they were
 * skipped under (the first cap when a rerun raised it later), e.g. "103 trials skipped as budget:
 * the spend cap of $1.50 kept them from starting ($1.36 spent; raised to $2.50 later for a rerun)."
 * @param spentUsd what the bench spent in all; `skipped` its trials skipped as budget
 */
export function budgetSkipLine(cap: SpendCap, spentUsd: number, skipped: number): string {
  const under = cap.raisedFromUsd ?? cap.usd;
  const raised = cap.raisedFromUsd !== undefined ? `; raised to ${usd(cap.usd)} later for a rerun` : "";
  return `${skipped.toLocaleString("en-US")} trial${skipped === 1 ? "" : "s"} skipped as budget: the spend cap of ${usd(under)} kept ${skipped === 1 ? "it" : "them"} from starting (${usd(spentUsd)} spent${raised}).`;
}
