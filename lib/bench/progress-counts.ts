/**
 * The counts line of a bench's progress bar, e.g. "120 done · 0 errors (3 rerun) · 0 skipped".
 * An errored trial that a later trial reruns stays stored as the attempt history, but it is no
 * longer an error of the bench (issue #16 §3: the bar said "3 errors" after all three were rerun
 * and passed, while the results table showed none).
 */

/** The counts the line is made of (a bench's progress). */
export interface ProgressCounts {
  done: number;
  /** Trials that ended in an error, including those a later trial reruns. */
  error: number;
  /** Of `error`, those a later trial reruns (absent from progress read before this field existed: 0). */
  errorsRerun?: number;
  skipped: number;
  /** Of `skipped`, the trials of a cancelled rerun (absent from progress read before this field existed: 0). */
  skippedRerunCancelled?: number;
  /** Trials claimed by workers (running or about to). */
  running: number;
}

/** A count with thousands separators: "20,000". */
export const n = (v: number) => v.toLocaleString("en-US");

/**
 * The errors still standing and — when some were rerun — how many were: "0 errors (2 rerun)",
 * "1 error". The page's bar and `bench run`'s progress line both say it this way (issue #16).
 */
export function errorsText(p: Pick<ProgressCounts, "error" | "errorsRerun">): string {
  const rerun = p.errorsRerun ?? 0;
  const standing = p.error - rerun;
  return `${n(standing)} error${standing === 1 ? "" : "s"}${rerun ? ` (${n(rerun)} rerun)` : ""}`;
}

/** The skipped trials and, of them, a cancelled rerun's: "104 skipped (6: rerun cancelled)" (page and `bench run` alike). */
export function skippedText(p: Pick<ProgressCounts, "skipped" | "skippedRerunCancelled">): string {
  const cancelled = p.skippedRerunCancelled ?? 0;
  return `${n(p.skipped)} skipped${cancelled ? ` (${n(cancelled)}: rerun cancelled)` : ""}`;
}

/**
 * The line, with the errors still standing and — when some were rerun — how many were, and of the
 * skipped trials those of a cancelled rerun: "104 skipped (6: rerun cancelled)" (the spend line
 * says the budget's; issue #16).
 */
export function progressCounts(p: ProgressCounts): string {
  return `${n(p.done)} done · ${errorsText(p)} · ${skippedText(p)}${p.running ? ` · ${n(p.running)} claimed by workers` : ""}`;
}
