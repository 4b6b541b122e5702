/**
 * A rerun's cost (issue #16 §3), pure: a rerun runs inside a bench that already measured what its
 * trials cost, so each of its trials is priced at what its candidate's finished trials of the same
 * case cost (one case's answers can cost many times another's: a confirm round reruns just a few
 * cases), else at its candidate's mean cost per finished trial, and at the launch plan's token
 * estimate only for a candidate none of whose trials finished. The plan's token estimate is an
 * upper bound that can be far from the real answers' lengths, in either direction.
 */
import { usd } from "../budget";

/** One candidate of the bench as a rerun's cost reads it. Amounts in USD. */
export interface RerunCandidateCost {
  /** The plan's cost of one of its rerun trials (its token estimate); null when its model has no prices. */
  plannedPerTrialUsd: number | null;
  /** What its finished trials spent (model and judge calls), and how many answered (bench_candidates.spent_usd, spent_trials). */
  spentUsd: number;
  spentTrials: number;
  /** Of `spentUsd`, its model's part: trials.cost_usd summed over all its trials (the rest is the judge's). */
  modelUsd: number;
}

/** What a candidate's model cost on one bench case: over its finished trials, and over all of them (USD). */
export interface CaseCost {
  doneUsd: number;
  done: number;
}

/** Where a rerun's cost comes from: how many of its trials are priced at their case's measured cost, their candidate's mean, or the plan's figure. */
export interface RerunCostFrom {
  caseTrials: number;
  candidateTrials: number;
  plannedTrials: number;
}

/**
 * The cost of a rerun's trials: each at what its candidate's finished trials of that case cost
 * (their model calls, plus the candidate's mean judge cost per trial), else at the candidate's mean
 * cost per finished trial, else (no finished trial) at the plan's figure.
 * @param candidates by candidate id; `cases` by "candidateId|benchCaseId"
 * @returns USD (null when a candidate's model has no prices: what it spent was counted as $0, so
 *   its means say nothing) and how many trials each source priced
 */
export function rerunCost(
  trials: readonly { candidateId: number; benchCaseId: number }[],
  candidates: ReadonlyMap<number, RerunCandidateCost>,
  cases: ReadonlyMap<string, CaseCost>,
): { costUsd: number | null; costFrom: RerunCostFrom } {
  let costUsd: number | null = 0;
  const costFrom = { caseTrials: 0, candidateTrials: 0, plannedTrials: 0 };
  for (const t of trials) {
    const c = candidates.get(t.candidateId);
    const planned = c?.plannedPerTrialUsd ?? null;
    let trialUsd: number | null;
    if (!c || c.spentTrials === 0) {
      costFrom.plannedTrials++;
      trialUsd = planned;
    } else {
      const k = cases.get(`${t.candidateId}|${t.benchCaseId}`);
      if (k && k.done > 0) {
        costFrom.caseTrials++;
        trialUsd = k.doneUsd / k.done + Math.max(0, c.spentUsd - c.modelUsd) / c.spentTrials;
      } else {
        costFrom.candidateTrials++;
        trialUsd = c.spentUsd / c.spentTrials;
      }
    }
    costUsd = costUsd === null || trialUsd === null || planned === null ? null : costUsd + trialUsd;
  }
  return { costUsd, costFrom };
}

/**
 * The rerun's cost as the confirm dialog and `bench run --confirm` say it, e.g. "about $0.47 (each
 * trial at what its candidate's trials of that case cost in this bench)".
 * @param costUsd the rerun's cost ({@link rerunCost}); null: unknown
 */
export function rerunCostText(costUsd: number | null, from: RerunCostFrom): string {
  if (costUsd === null) return "cost unknown (a model has no prices set)";
  const total = from.caseTrials + from.candidateTrials + from.plannedTrials;
  const parts: [number, string, string][] = [
    [from.caseTrials, "at what its candidate's trials of that case cost in this bench", "at what their candidate's trials of that case cost in this bench"],
    [from.candidateTrials, "at its candidate's mean cost per trial in this bench", "at their candidate's mean cost per trial in this bench"],
    [
      from.plannedTrials,
      "at the plan's token estimate (no trial of its candidate has finished)",
      "at the plan's token estimate (no trial of their candidate has finished)",
    ],
  ];
  const used = parts.filter(([k]) => k > 0);
  const basis =
    used.length === 1
      ? `each trial ${used[0][1]}`
      : used.map(([k, , many], i) => `${k.toLocaleString("en-US")}${i === 0 ? ` of ${total.toLocaleString("en-US")} trials` : ""} ${many}`).join(", ");
  return `about ${usd(costUsd)} (${basis})`;
}
