/**
 * The New bench request's spend cap and gate limits (issue #16 §4) into the bench's settings.
 */
import type { BenchSettings } from "@/db/queries/benches";
import { capAllowance, trialCostEstimate, usd } from "@/lib/bench/budget";
import { n } from "@/lib/bench/progress-counts";
import type { BenchRequest } from "@/lib/bench/request";
import type { BenchPlan } from "@/lib/bench/types";
import { LibraryError } from "@/lib/library/errors";

/**
 * Stores the spend cap (with the plan's mean cost per trial and each candidate's, what its running
 * trials count for) and the gate limits in `settings`; absent ones are left out.
 * @throws LibraryError `validation` (field `spendCapUsd`) when a cap is set but the plan cannot
 *   price the bench (a candidate or judge model without prices): the cap could not be enforced
 */
export function applyBudgetSettings(settings: BenchSettings, r: BenchRequest, plan: BenchPlan): void {
  if (r.spendCapUsd != null) {
    const perTrial = trialCostEstimate(plan);
    if (perTrial === null) {
      const msg =
        "A spend cap needs prices: a candidate or judge model of this bench has no input/output price per million tokens. Set its prices on the Models page, or leave the cap empty.";
      throw new LibraryError("validation", msg, { spendCapUsd: msg });
    }
    // Each candidate's own cost per trial: a running trial counts at its candidate's, so a dear
    // candidate's trials are not counted at a mean that cheaper candidates pull down.
    const perCandidate = plan.candidateTrialCostUsd;
    settings.spendCap = {
      usd: r.spendCapUsd,
      trialEstimateUsd: perTrial,
      ...(perCandidate?.length && perCandidate.every((c): c is number => c !== null) ? { candidateTrialUsd: perCandidate } : {}),
    };
    // What fits as the claim counts it (capAllowance, at launch: nothing spent, nothing running): a new
    // trial at the dearest candidate's estimate. The estimate counts every answer at its output-token
    // limit, and the claim goes on starting trials while spent + one estimate fits, so real trials that
    // cost less let more start (issue 20: "about 4 of the 400", at the mean, and 28 ran): a bound, said as one.
    const candidates = (settings.spendCap.candidateTrialUsd ?? []).map((_, position) => ({ position, spentUsd: 0, spentTrials: 0, running: 0 }));
    const { startable: fit, dearestUsd } = capAllowance(settings.spendCap, { spentUsd: 0, spentTrials: 0 }, candidates);
    if (fit < plan.trialCount) {
      const whose = candidates.length > 1 ? "the dearest candidate's; " : "";
      plan.warnings.push(
        `The estimated cost (${usd(plan.estimate.costUsd!)}) is over the spend cap of ${usd(r.spendCapUsd)}. Trials start while what was spent plus one trial's estimate stays within the cap: at the plan's ${usd(dearestUsd)} a trial (${whose}it counts every answer at its output-token limit), ${n(fit)} of the ${n(plan.trialCount)} trials fit, and trials that cost less let more start. The rest will be skipped as “budget”.`,
      );
    }
  }
  const gate = {
    ...(r.maxLatencyIncreasePct != null ? { maxLatencyIncreasePct: r.maxLatencyIncreasePct } : {}),
    ...(r.maxCostIncreasePct != null ? { maxCostIncreasePct: r.maxCostIncreasePct } : {}),
  };
  if (Object.keys(gate).length) {
    settings.gate = gate;
    if (r.baseline.kind !== "candidate")
      plan.warnings.push("Gate limits compare each candidate with the baseline candidate: with no baseline candidate they block nothing.");
  }
}
