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
  /** What one trial is expected to cost (the plan's estimate divided by its trials): what a running trial counts for. */
  trialEstimateUsd: number;
  /**
   * Set while a rerun that raised the cap runs (issue #16): the cap before the raise and what the
   * bench had spent then. When the rerun is cancelled having spent nothing, the cap goes back to
   * `fromUsd`; either way this is removed when the rerun ends (see rerun/spend-cap's capAfterRerun).
   */
  raisedForRerun?: { fromUsd: number; spentUsd: number };
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

/** What a finished trial spent in USD: its candidate's calls and its judge's (unknown prices count 0). */
export function outcomeSpend(o: Pick<TrialOutcome, "costUsd" | "checks">): number {
  let total = o.costUsd ?? 0;
  for (const c of o.checks ?? []) total += c.usage?.costUsd ?? 0;
  return total;
}
