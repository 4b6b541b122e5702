/**
 * What the trial view says about the regressions of its case (issue #16 §5). A regression is
 * found per case over all its repeats: a repeat that passes the check, or a check a confirm round
 * cleared, must not read "Regressed: this check passed before and fails here".
 */
import { isResolved, type StatusedRegression } from "./resolved";

/** The regressions of a trial's case, by what they mean for this trial. */
export interface TrialRegressions {
  /** Open (confirmed or suspected) and failing in this trial. */
  failsHere: StatusedRegression[];
  /** Open, but this trial passes the check (it fails in other repeats of the case). */
  passesHere: StatusedRegression[];
  /** Resolved by a confirm round ("flaky — cleared", or flaky on the baseline): they do not block. */
  cleared: StatusedRegression[];
}

/**
 * Sorts a case's regressions for one of its trials.
 * @param checks the trial's check records (key and verdict read)
 */
export function trialRegressions(regressed: readonly StatusedRegression[], checks: readonly { key: string; verdict: string }[]): TrialRegressions {
  const out: TrialRegressions = { failsHere: [], passesHere: [], cleared: [] };
  const failed = new Set(checks.filter((c) => c.verdict === "failed").map((c) => c.key));
  for (const r of regressed) {
    if (isResolved(r)) out.cleared.push(r);
    else (failed.has(r.key) ? out.failsHere : out.passesHere).push(r);
  }
  return out;
}
