/**
 * Drives a bench's queued trials through SQLite's trial job queue without a worker loop, for tests
 * and figures that script each trial's outcome: claim (as many as the bench's limits allow), store
 * the scripted outcomes, repeat until nothing is left, then finalize. Trials stored without a job
 * are enqueued first.
 */
import type { Db } from "@/db/client";
import { finalizeBench } from "@/db/queries/bench-finalize";
import { SqliteTrialJobQueue } from "@/db/queries/trial-job-queue";
import { claimedTrialRows } from "@/db/queries/trial-jobs";
import type { ClaimedTrial, TrialOutcome } from "@/lib/bench/queue";
import { enqueueOrphanTrials } from "../trial-jobs";

/**
 * Runs every queued trial of `benchId` to the outcome `outcomesFor` gives a claimed batch.
 * @param o.finalize finalize the bench at the end (default true); `now` (ms) the time used throughout
 * @returns whether the finalize ended the bench (false when not asked)
 * @throws what the outcomes' store or the finalize throws
 */
export async function runQueuedTrials(
  db: Db,
  benchId: number,
  outcomesFor: (claimed: ClaimedTrial[]) => TrialOutcome[],
  o: { now?: number; finalize?: boolean } = {},
): Promise<boolean> {
  const now = o.now ?? Date.now();
  await enqueueOrphanTrials(db, {});
  const queue = new SqliteTrialJobQueue(db);
  for (;;) {
    const claims = (await queue.claim("driver", 10_000, now)).filter((c) => c.benchId === benchId);
    if (claims.length === 0) break;
    const byTrial = new Map(claims.map((c) => [c.trialId, c]));
    const rows = await claimedTrialRows(
      db,
      claims.map((c) => c.trialId),
    );
    const outcomes = outcomesFor(rows);
    await queue.completeMany(outcomes.map(({ id, ...result }) => ({ claim: byTrial.get(id)!, result })));
  }
  return o.finalize === false ? false : (await finalizeBench(db, benchId, now)) !== null;
}
