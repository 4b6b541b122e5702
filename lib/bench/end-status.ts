/**
 * How an open bench ends once none of its trials is open (issue #16 §3, "cancelling a Confirm
 * rerun"). A cancel asked during a rerun cancels only the rerun's trials (the worker skips them as
 * "cancelled before it ran"): the bench had finished before the rerun reopened it, so it ends
 * `finished` again with its first run's results, and the rerun can be offered again.
 */

/** A bench's state as far as its end status cares. */
export interface EndingBench {
  /** A cancel was asked (benches.cancel_requested_at set). */
  cancelRequested: boolean;
  /** Trials the bench had when a rerun reopened it (benches.rerun_base); 0 when no rerun ever did. */
  rerunBase: number;
}

/**
 * The end status of a bench: `cancelled` when a cancel was asked during its launched run, else
 * `finished` (also when the cancel was asked during a rerun inside the finished bench).
 */
export function benchEndStatus(b: EndingBench): "finished" | "cancelled" {
  return b.cancelRequested && b.rerunBase === 0 ? "cancelled" : "finished";
}

/**
 * What a bench says when a cancel reached it after its run's last trial had stored its result
 * (issue #16): it cancelled nothing, and the run ended with all its results.
 * @param byEmail who asked for the cancel, when known
 */
export function cancelTooLateNote(byEmail: string | null): string {
  return `The cancel${byEmail ? ` by ${byEmail}` : ""} came too late: every trial had already stored its result, so nothing was cancelled and the bench finished with all of them.`;
}
