/**
 * A bench no worker has picked up (issue 20). With `BENCHWORK_WORKER=off` and no `npm run worker`
 * running, a launched bench stayed "queued · time left not known yet" for ever and nothing said why.
 * There is no table of workers (dropped on purpose): what is stored tells it instead — the bench has
 * waited this long and no trial of its current run was ever claimed or ended.
 */
import type { ProgressTimes } from "./progress-clock";

/** How long (ms) a bench waits for its first claim before the progress bar asks whether a worker runs. */
export const NO_WORKER_AFTER_MS = 15_000;

/** What {@link unclaimedSince} reads of a bench's progress. */
export type UnclaimedInput = Pick<ProgressTimes, "status" | "createdAt" | "startedAt" | "finishedBefore" | "candidates"> & {
  queued: number;
  running: number;
};

/**
 * Since when (ms since the epoch) the bench's current run has waited with none of its trials claimed
 * or ended: the launch while no worker claimed any yet (`startedAt` is set by the first claim), or a
 * rerun's reopening while none of its trials ran. Null when a trial runs or ran in this run, no trial
 * waits, or the bench ended.
 */
export function unclaimedSince(p: UnclaimedInput): number | null {
  if (p.status !== "queued" && p.status !== "running") return null;
  if (p.running > 0 || p.queued === 0) return null;
  if (p.startedAt === null) return p.createdAt;
  const endedInRun = p.candidates.reduce((sum, c) => sum + c.endedInRun, 0);
  return p.finishedBefore > 0 && endedInRun === 0 ? p.startedAt : null;
}

/**
 * Whether the bench waited long enough to ask about workers.
 * @param since from {@link unclaimedSince}
 * @param now the current time (ms)
 */
export function waitedForWorker(since: number | null, now: number): boolean {
  return since !== null && now - since >= NO_WORKER_AFTER_MS;
}
