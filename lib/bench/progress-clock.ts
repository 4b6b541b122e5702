/**
 * Elapsed and estimated time left of a bench's progress. A rerun inside a finished bench (a
 * confirm round, errored trials: issue #16 §3) reopens it: it is timed from the rerun's start, over
 * the rerun's trials only — the launch's start and the trials that ended before would make the
 * elapsed time the bench's age and the rate far too high.
 */

/** What the clock reads of a bench's progress (`BenchProgress`), times in ms. */
export interface ProgressTimes {
  status: "queued" | "running" | "finished" | "cancelled" | "failed";
  total: number;
  done: number;
  error: number;
  skipped: number;
  createdAt: number;
  /** When the current run started: the launch's first claim, or the reopening by the last rerun. */
  startedAt: number | null;
  finishedAt: number | null;
  /** Trials that ended before the current run started (a rerun's bench: all the earlier ones; else 0). */
  finishedBefore: number;
}

/**
 * @param now the current time (ms)
 * @returns `elapsedMs` since the current run started (the launch while queued), `leftMs` at the
 *   run's rate so far (null when it has ended or nothing of it finished yet), and whether the run is a rerun
 */
export function progressClock(p: ProgressTimes, now: number): { elapsedMs: number; leftMs: number | null; rerun: boolean } {
  const ended = p.status !== "queued" && p.status !== "running";
  const end = p.finishedAt ?? now;
  const finished = p.done + p.error + p.skipped;
  const inRun = finished - p.finishedBefore;
  const rate = p.startedAt !== null && inRun > 0 ? inRun / Math.max(1, end - p.startedAt) : 0;
  return {
    elapsedMs: Math.max(0, end - (p.startedAt ?? p.createdAt)),
    leftMs: !ended && rate > 0 ? (p.total - finished) / rate : null,
    rerun: p.finishedBefore > 0,
  };
}
