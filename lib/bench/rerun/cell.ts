/**
 * What a results-matrix cell says while a rerun inside its bench (Confirm suspected regressions,
 * Rerun errored trials; issue #16 §3) still has trials of it to run.
 */

/**
 * "rerunning: 1 of 2 trials left".
 * @param r the cell's rerun trials still queued or running (`left`) of the rerun's trials in it (`trials`)
 */
export function rerunningText(r: { left: number; trials: number }): string {
  return `rerunning: ${r.left} of ${r.trials} trial${r.trials === 1 ? "" : "s"} left`;
}
