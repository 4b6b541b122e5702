/**
 * How the trial view names a trial among its case's trials (issue #16 §3): an error rerun is the
 * rerun of its errored trial's repeat, not a new repeat ("repeat 2" on a one-trial bench read as a
 * second sample), and the errored trial says it was rerun.
 */

/** A trial of one candidate on one case, as `repeatTrials` reads it. */
export interface RepeatTrial {
  id: number;
  repeat: number;
  /** `error` (reruns `rerunOf`), `confirm` (a confirm round's added repeat), or null (planned). */
  rerun: "confirm" | "error" | null;
  rerunOf: number | null;
}

/**
 * "repeat 1", "repeat 1 (error rerun)" for a rerun of repeat 1's errored trial (following a rerun of
 * a rerun back to the planned repeat), "repeat 1 (errored, rerun)" for an errored trial a later one
 * reruns, "repeat 4 (confirm rerun)" for a confirm round's repeat.
 * @param siblings the case's trials of the same candidate (they include `trial`)
 */
export function trialRepeatLabel(trial: RepeatTrial, siblings: readonly RepeatTrial[]): string {
  const replaced = siblings.some((s) => s.rerunOf === trial.id);
  const notes = [trial.rerun === "error" ? "error rerun" : trial.rerun === "confirm" ? "confirm rerun" : "", replaced ? "errored, rerun" : ""].filter(Boolean);
  return `repeat ${plannedRepeat(trial, siblings)}${notes.length ? ` (${notes.join("; ")})` : ""}`;
}

/**
 * The planned repeat a trial stands for: its own, or for an error rerun its errored trial's
 * (following a rerun of a rerun back; an errored trial not among `siblings` ends the chain there).
 */
export function plannedRepeat(trial: RepeatTrial, siblings: readonly RepeatTrial[]): number {
  const byId = new Map(siblings.map((s) => [s.id, s]));
  let origin = trial;
  // Bounded by the number of siblings: a malformed chain cannot loop.
  for (let i = 0; origin.rerun === "error" && origin.rerunOf !== null && i < siblings.length; i++) {
    const prev = byId.get(origin.rerunOf);
    if (!prev) break;
    origin = prev;
  }
  return origin.repeat;
}
