/**
 * What the bench page's progress poll reads each second while a bench runs (issue #16): its
 * progress, and what it spent so far — the spend line under the title follows the run with it
 * instead of showing the figures of the page's first render ("spent $0.00" beside 12 done trials).
 */
import type { Db } from "@/db/client";
import { benchSpend, type BenchSpend } from "@/db/queries/bench-budget";
import { getBenchProgress, type BenchProgress } from "@/db/queries/benches";
import { liveClaimElsewhere } from "@/db/queries/bench-unclaimed";
import { unclaimedSince, waitedForWorker } from "@/lib/bench/unclaimed";
import { progressLease } from "./progress-lease";

/** The spend line's figures, as JSON carries them (BenchSpend without its per-candidate Map of budget skips). */
export type SpendFigures = Pick<BenchSpend, "spentUsd" | "spentTrials" | "candidates" | "budgetSkippedTotal">;

/** The figures of `spend` that the spend line shows (no Map: they cross to the browser). */
export function spendFigures(spend: BenchSpend): SpendFigures {
  const { spentUsd, spentTrials, candidates, budgetSkippedTotal } = spend;
  return { spentUsd, spentTrials, candidates, budgetSkippedTotal };
}

/**
 * A bench's progress with its spend figures, and `noWorkerSince`: since when (ms) it has waited for a
 * worker that never came (lib/bench/unclaimed.ts; null unless it waited NO_WORKER_AFTER_MS, 15 s,
 * with no trial claimed and no live worker at work on another bench).
 */
export type BenchProgressPoll = ProgressWithWorkerWait & { spend: SpendFigures };

/** A bench's progress with `noWorkerSince` (see {@link BenchProgressPoll}). */
export type ProgressWithWorkerWait = BenchProgress & { noWorkerSince: number | null };

/**
 * Bench `id`'s progress and spending, ready for `Response.json`.
 * @param o.now the current time (ms; default now)
 * @param o.leaseMs the workers' lease (default {@link progressLease}'s)
 * @returns null when there is no such bench
 */
export async function benchProgressPoll(db: Db, id: number, o: { now?: number; leaseMs?: number } = {}): Promise<BenchProgressPoll | null> {
  const p = await progressWithWorkerWait(db, id, o);
  return p && { ...p, spend: spendFigures(await benchSpend(db, id)) };
}

/**
 * Bench `id`'s progress and `noWorkerSince` (see {@link BenchProgressPoll}): what the bench page's
 * poll and the API's `GET /api/v1/benches/{id}/progress` both say.
 * @param o.now the current time (ms; default now)
 * @param o.leaseMs the workers' lease (default {@link progressLease}'s)
 * @returns null when there is no such bench
 */
export async function progressWithWorkerWait(db: Db, id: number, o: { now?: number; leaseMs?: number } = {}): Promise<ProgressWithWorkerWait | null> {
  const now = o.now ?? Date.now();
  const leaseMs = o.leaseMs ?? progressLease().leaseMs;
  const p = await getBenchProgress(db, id, { now, leaseMs });
  if (!p) return null;
  const since = unclaimedSince(p);
  // A live worker busy with other benches: this one waits its turn behind them, not for a worker.
  const noWorkerSince = waitedForWorker(since, now) && !(await liveClaimElsewhere(db, id, now, leaseMs)) ? since : null;
  return { ...p, noWorkerSince };
}
