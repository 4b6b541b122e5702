/**
 * Elapsed and estimated time left of a bench's progress. A rerun inside a finished bench (a
 * confirm round, errored trials: issue #16 §3) reopens it: it is timed from the rerun's start, over
 * the rerun's trials only — the launch's start and the trials that ended before would make the
 * elapsed time the bench's age and the rate far too high.
 *
 * The time left is estimated per candidate, at each one's own rate: recorded answers end at once
 * while live model calls take seconds each, so one rate over a bench that mixes them (most of it
 * the recorded ones, ended in the first second) made the estimate far too low. The launch queues a
 * case's candidates side by side and the workers claim in that order, so the candidates run
 * together: the bench ends when the slowest of them does — and not before trials a worker that
 * stopped responding holds have run again.
 */
import type { StalledClaims } from "./stalled-claims";

/** An estimate under this (ms) is no figure to show: the run is finishing. */
const FINISHING_MS = 1_000;

/** One candidate's trials in the bench: all, ended (done, error or skipped), and ended since the current run started. */
export interface CandidateProgress {
  total: number;
  ended: number;
  endedInRun: number;
}

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
  /** Per candidate of the bench (any order). */
  candidates: CandidateProgress[];
  /** On a bench a rerun reopened: its launch run's first trial start and last trial end (absent before any rerun). */
  launchRun?: { startedAt: number | null; finishedAt: number | null };
  /** Trials held by a worker that stopped responding, and when they run again (PostgreSQL; absent or null: none). */
  stalled?: StalledClaims | null;
}

/**
 * @param now the current time (ms)
 * @returns `elapsedMs` since the current run started (the launch while queued), `leftMs` the longest
 *   of the candidates' trials left at each one's rate in this run (null when the run has ended, or
 *   while a candidate with trials left has ended none in it: its rate is not known yet), `finishing: true`
 *   (with `leftMs` null) while the run has not ended but its estimate is under a second — every trial
 *   ended and the status not yet written, or the last trials running after budget skips that ended at
 *   once inflated the rate: "about 0s left" beside running trials was wrong (issue #16) —, whether the run is a rerun,
 *   and then `launchElapsedMs`, the bench's own run (its launch trials' first start to last end) when known
 */
export function progressClock(
  p: ProgressTimes,
  now: number,
): { elapsedMs: number; leftMs: number | null; finishing?: true; rerun: boolean; launchElapsedMs?: number } {
  const ended = p.status !== "queued" && p.status !== "running";
  const end = p.finishedAt ?? now;
  let leftMs: number | null = null;
  if (!ended && p.startedAt !== null) {
    const runMs = Math.max(1, end - p.startedAt);
    leftMs = 0;
    let slowestTrialMs = 0;
    for (const c of p.candidates) {
      const left = c.total - c.ended;
      if (left <= 0) continue;
      if (c.endedInRun <= 0) {
        leftMs = null;
        break;
      }
      leftMs = Math.max(leftMs, (left * runMs) / c.endedInRun);
      slowestTrialMs = Math.max(slowestTrialMs, runMs / c.endedInRun);
    }
    if (leftMs === 0 && p.total > p.done + p.error + p.skipped) leftMs = null; // no candidate figures to go by
    // Trials a dead worker holds wait for its lease to run out, then take (at least) a trial's time
    // again: the rate of the others said "about 5s left" beside 45 s of lease (issue 20's tester).
    if (leftMs !== null && p.stalled && p.stalled.runAgainAt > now) leftMs = Math.max(leftMs, p.stalled.runAgainAt - now + slowestTrialMs);
  }
  const finishing = leftMs !== null && leftMs < FINISHING_MS;
  if (finishing) leftMs = null;
  const launch = p.launchRun;
  return {
    elapsedMs: Math.max(0, end - (p.startedAt ?? p.createdAt)),
    leftMs,
    ...(finishing ? { finishing: true as const } : {}),
    rerun: p.finishedBefore > 0,
    ...(p.finishedBefore > 0 && launch && launch.finishedAt !== null
      ? { launchElapsedMs: Math.max(0, launch.finishedAt - (launch.startedAt ?? p.createdAt)) }
      : {}),
  };
}
