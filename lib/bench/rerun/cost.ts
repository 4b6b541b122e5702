/**
 * A rerun's cost (issue #16 §3), pure: a rerun runs inside a bench that already measured what its
 * candidates' trials cost, so each of its trials is priced at its candidate's mean cost per finished
 * trial (model calls and judge calls, as the spend cap counts them), and at the launch plan's
 * token estimate only for a candidate none of whose trials finished. The plan's token estimate is
 * an upper bound that can be far from the real answers' lengths, in either direction.
 */
import { usd } from "../budget";

/** One candidate's share of a rerun. Amounts in USD. */
export interface RerunCandidateCost {
  /** The rerun's trials of this candidate. */
  trials: number;
  /** The plan's cost of those trials (its token estimate); null when its model has no prices. */
  plannedUsd: number | null;
  /** What the candidate's finished trials of this bench spent, and how many answered (bench_candidates.spent_usd, spent_trials). */
  spentUsd: number;
  spentTrials: number;
}

/** Where a rerun's cost comes from: how many of its trials are priced at their candidate's measured mean, how many at the plan's figure. */
export interface RerunCostFrom {
  measuredTrials: number;
  plannedTrials: number;
}

/**
 * The cost of a rerun's trials, each at its candidate's measured mean cost per finished trial, or
 * at the plan's figure for a candidate with no finished trial.
 * @returns USD (null when a candidate's model has no prices: what it spent was counted as $0, so
 *   its mean says nothing) and how many trials each source priced
 */
export function rerunCost(candidates: readonly RerunCandidateCost[]): { costUsd: number | null; costFrom: RerunCostFrom } {
  let costUsd: number | null = 0;
  const costFrom = { measuredTrials: 0, plannedTrials: 0 };
  for (const c of candidates) {
    if (c.trials === 0) continue;
    const measured = c.spentTrials > 0;
    if (measured) costFrom.measuredTrials += c.trials;
    else costFrom.plannedTrials += c.trials;
    if (costUsd === null || c.plannedUsd === null) {
      costUsd = null;
      continue;
    }
    costUsd += measured ? (c.trials * c.spentUsd) / c.spentTrials : c.plannedUsd;
  }
  return { costUsd, costFrom };
}

/**
 * The rerun's cost as the confirm dialog and `bench run --confirm` say it, e.g. "about $0.47 (each
 * trial at its candidate's measured cost per trial in this bench)".
 * @param costUsd the rerun's cost ({@link rerunCost}); null: unknown
 */
export function rerunCostText(costUsd: number | null, from: RerunCostFrom): string {
  if (costUsd === null) return "cost unknown (a model has no prices set)";
  const basis =
    from.plannedTrials === 0
      ? "each trial at its candidate's measured cost per trial in this bench"
      : from.measuredTrials === 0
        ? "the plan's token estimate: no trial of its candidates has finished yet"
        : `${from.measuredTrials.toLocaleString("en-US")} trial${from.measuredTrials === 1 ? "" : "s"} at their candidate's measured cost per trial in this bench, ${from.plannedTrials.toLocaleString("en-US")} at the plan's token estimate (no trial of their candidate has finished)`;
  return `about ${usd(costUsd)} (${basis})`;
}
