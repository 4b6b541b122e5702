/**
 * A rerun inside a bench under a spend cap (issue #16 §3–4), pure. The cap is the bench's: what
 * its first run spent counts against it, so a rerun of a bench that reached its cap would have
 * every trial skipped as "budget" at once and the regressions stay suspected (the Confirm button
 * offered again: a loop). The plan says what is left and whether the cap stops the rerun; the
 * rerun then starts only with the cap raised to at least `neededUsd`, or is refused with that reason.
 */
import { LibraryError } from "../../library/errors";
import { candidateEstimates, inFlightEstimate, usd, type SpendCap } from "../budget";
import { counted } from "../counted";

/** The spend cap as a rerun meets it. Amounts in USD. */
export interface RerunSpendCap {
  capUsd: number;
  spentUsd: number;
  /** What is left under the cap (0 when it was reached). */
  leftUsd: number;
  /** What a trial about to start counts for: the dearest candidate's estimate (its plan's cost per trial, or its dearest finished trial when higher: what the queue uses). */
  perTrialUsd: number;
  /** Of the rerun's trials, how many may start under the cap (all of them when it does not stop it). */
  startable: number;
  /** The rerun's trials. */
  trials: number;
  /** The cap would stop the rerun: fewer than all of its trials could start. */
  stops: boolean;
  /** The smallest cap (rounded up to the cent) under which every trial of the rerun may start. */
  neededUsd: number;
  /**
   * The rerun's cost as its plan states it (each trial at what this bench measured for its candidate,
   * lib/bench/rerun/cost.ts): the sentences split `neededUsd` into what was spent, this, and the
   * queue's safety margin. Absent (or null: unknown prices): not split.
   */
  rerunCostUsd?: number | null;
}

/**
 * What a cap of `neededUsd` holds beyond what was spent and the rerun's planned cost, said so: the
 * queue counts a trial about to start at the dearest candidate's cost, and a candidate at its
 * plan's cost per trial when that is above what its trials measured. Empty when not known; no
 * margin named under half a cent (the cap is rounded up to the cent).
 */
function neededSplit(c: RerunSpendCap): string {
  if (c.rerunCostUsd == null) return "";
  const margin = Math.max(0, c.neededUsd - c.spentUsd - c.rerunCostUsd);
  return (
    ` (${usd(c.spentUsd)} spent + ${usd(c.rerunCostUsd)} this rerun's cost` +
    (margin >= 0.005
      ? ` + ${usd(margin)} safety margin: the queue counts a trial about to start at the dearest candidate's cost, and each candidate at the higher of its planned cost per trial and its dearest measured trial, whatever the case)`
      : ")")
  );
}

/**
 * How the bench's spend cap meets a rerun of `trials` trials, counted as the queue's claim counts
 * (lib/bench/budget.ts `capAllowance`): a trial starts while spent + the started ones at their
 * candidate's estimate + the dearest candidate's estimate fit.
 * @param cap the bench's cap (settings.spendCap), or undefined when it has none
 * @param spent USD spent by the bench's finished trials and how many they were (benches.spent_usd,
 *   spent_trials), and per candidate (bench_candidates' own, with its dearest finished trial,
 *   max_trial_usd; absent: every trial at the bench's figure)
 * @param positions the candidate position of each of the rerun's trials (absent: each at the dearest)
 * @returns null without a cap
 */
export function rerunSpendCap(
  cap: SpendCap | undefined | null,
  spent: { spentUsd: number; spentTrials: number; candidates?: { position: number; spentUsd: number; spentTrials: number; maxTrialUsd?: number }[] },
  trials: number,
  positions?: readonly number[],
): RerunSpendCap | null {
  if (!cap) return null;
  const candidates = (spent.candidates ?? []).map((c) => ({ ...c, running: 0 }));
  const est = candidateEstimates(cap, spent, candidates);
  const perTrialUsd = est.length ? Math.max(...est) : inFlightEstimate(cap.trialEstimateUsd, spent);
  const estOf = new Map(candidates.map((c, i) => [c.position, est[i]]));
  // Dearest first: the count that holds whichever order the queue starts them in.
  const costs = Array.from({ length: trials }, (_, i) => (positions ? (estOf.get(positions[i]) ?? perTrialUsd) : perTrialUsd)).sort((a, b) => b - a);
  const EPS = 1e-9;
  let startable = 0;
  let held = spent.spentUsd;
  for (const c of costs) {
    if (held + perTrialUsd > cap.usd + EPS) break;
    held += c;
    startable++;
  }
  // Every trial starts when the last one, at the dearest estimate, fits beside all the others.
  const all = costs.reduce((a, c) => a + c, 0);
  const needed = spent.spentUsd + (trials ? all - costs[costs.length - 1] + perTrialUsd : 0);
  return {
    capUsd: cap.usd,
    spentUsd: spent.spentUsd,
    leftUsd: Math.max(0, cap.usd - spent.spentUsd),
    perTrialUsd,
    startable,
    trials,
    stops: startable < trials,
    // A hair above the exact sum, then up to the cent: the queue's float sums must not land just over it.
    neededUsd: Math.ceil(needed * 100 - 1e-6) / 100,
  };
}

/**
 * What the cap means for the rerun, in one sentence: what is left, and — when it stops the rerun —
 * how many trials could start and the cap it needs, e.g. "Spend cap $2.00: $1.98 spent, $0.02
 * left; it would stop this rerun (0 of 9 trials could start): raise it to at least $2.17 for the rerun."
 */
export function rerunSpendCapSentence(c: RerunSpendCap): string {
  const head = `Spend cap ${usd(c.capUsd)}: ${usd(c.spentUsd)} spent, ${usd(c.leftUsd)} left`;
  if (!c.stops) return `${head}; enough for this rerun.`;
  return `${head}; it would stop this rerun (${c.startable.toLocaleString("en-US")} of ${counted(c.trials, "trial")} could start): raise it to at least ${usd(c.neededUsd)} for the rerun${neededSplit(c)}.`;
}

/**
 * Why a rerun cannot start under the cap it would run with, or null when it can.
 * @param raiseToUsd the cap the user asked the rerun to run with (undefined: the bench's own)
 */
export function rerunSpendCapRefusal(c: RerunSpendCap | null, raiseToUsd: number | undefined): string | null {
  if (c === null) return raiseToUsd === undefined ? null : "This bench has no spend cap to raise.";
  if (raiseToUsd !== undefined && raiseToUsd < c.capUsd) return `The spend cap can only be raised for a rerun (it is ${usd(c.capUsd)}).`;
  if (raiseToUsd === undefined ? !c.stops : raiseToUsd >= c.neededUsd) return null;
  const asked = raiseToUsd === undefined ? "" : ` A cap of ${usd(raiseToUsd)} is not enough.`;
  return `The spend cap would stop this rerun: ${usd(c.spentUsd)} of ${usd(c.capUsd)} spent, ${c.startable.toLocaleString("en-US")} of its ${counted(c.trials, "trial")} could start.${asked} Raise the cap to at least ${usd(c.neededUsd)} for the rerun${neededSplit(c)}.`;
}

/**
 * A rerun refused because the spend cap would stop it (`not_allowed`, with the reason of
 * {@link rerunSpendCapRefusal}): told apart from "nothing to rerun" so that `bench run --confirm`
 * / `--rerun-errors` can fail instead of passing as if the rerun had run.
 */
export class RerunSpendCapError extends LibraryError {
  constructor(message: string, fieldErrors?: Record<string, string>) {
    super("not_allowed", message, fieldErrors);
    this.name = "RerunSpendCapError";
  }
}

/**
 * The bench's spend cap once a rerun that raised it ends (issue #16). A rerun cancelled before any
 * of its trials spent anything goes back to the cap from before the raise: the raise was approved
 * for a rerun that did not happen. Once the rerun spent under the raised cap (cancelled later, or
 * run to its end), the raised cap stays: it is what that spending was allowed under.
 * @param cap the cap as stored (with `raisedForRerun` when the rerun raised it)
 * @param end `cancelled`: Cancel ended the rerun; `spentUsd`: what the bench has spent in all now
 * @returns the cap to store, without `raisedForRerun` (with `raisedFromUsd` when the raise stays)
 */
export function capAfterRerun(cap: SpendCap, end: { cancelled: boolean; spentUsd: number }): SpendCap {
  const { raisedForRerun, ...rest } = cap;
  if (!raisedForRerun) return rest;
  // Spending only grows; a float sum may differ from the stored figure in its last bits.
  const spentNothing = end.spentUsd <= raisedForRerun.spentUsd + 1e-9;
  if (end.cancelled && spentNothing) return { ...rest, usd: raisedForRerun.fromUsd };
  // The raise stays: remember the cap the bench ran under before its first raise (its budget skips were made under it).
  return { ...rest, raisedFromUsd: rest.raisedFromUsd ?? raisedForRerun.fromUsd };
}

/**
 * What happens to a cap raised for a rerun if that rerun is cancelled (see {@link capAfterRerun}),
 * e.g. "cancelled before any of its trials spends, it goes back to $2.00; after that it stays".
 * @param fromUsd the cap before the raise
 */
export function raisedCapOnCancel(fromUsd: number): string {
  return `cancelled before any of its trials spends, it goes back to ${usd(fromUsd)}; after that it stays`;
}
