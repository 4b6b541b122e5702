/**
 * What the trial view says about the regressions of its case (issue #16 §5). A regression is
 * found per case over all its repeats: a repeat that passes the check, or a check a confirm round
 * cleared, must not read "Regressed: this check passed before and fails here".
 */
import { isResolved, type StatusedRegression } from "./resolved";

/** The regressions of a trial's case, by what they mean for this trial. */
export interface TrialRegressions {
  /** Open (confirmed or suspected) and not passed in this trial (failed, or not scored here). */
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
  // Only a check this trial passed "passes here": one it did not score (its judge left it unscored and
  // a reviewer failed it, or it errored) is not known to pass, and keeps the regression's note.
  const passed = new Set(checks.filter((c) => c.verdict === "passed").map((c) => c.key));
  for (const r of regressed) {
    if (isResolved(r)) out.cleared.push(r);
    else (passed.has(r.key) ? out.passesHere : out.failsHere).push(r);
  }
  return out;
}
