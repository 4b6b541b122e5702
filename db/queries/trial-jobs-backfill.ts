/**
 * Benches whose open trials have no job on the SQLite trial job queue: those of a database made
 * before the queue (issue 20; their trials were claimed from the `trials` table itself) and of
 * anything that stores trials without enqueueing them. The job worker enqueues them at start
 * (server/bench/trial-jobs.ts, `enqueueOrphanTrials`), so an upgrade needs no migration of data.
 * SQLite only: PostgreSQL's jobs are pg-boss's.
 */
import { and, eq, exists, inArray, isNull, notExists, sql } from "drizzle-orm";
import type { Db } from "../client";
import { benches, trials } from "../schema";
import { queueBenches, trialJobs } from "../schema-sqlite-queue";
import type { TxDb } from "../transaction";
import { selectIds } from "./prepared-ids";

const OPEN_BENCH = inArray(benches.status, ["queued", "running"]);

/**
 * Open benches with a queued or running trial that has no job, oldest first.
 * @param o.unqueuedOnly only benches the queue has never seen (no `queue_benches` row): a cheap
 *   check for every poll; without it every open trial is looked at (at start)
 */
export async function benchesWithoutJobs(db: Db, o: { unqueuedOnly?: boolean } = {}): Promise<number[]> {
  const jobless = notExists(
    db
      .select({ one: sql`1` })
      .from(trialJobs)
      .where(eq(trialJobs.trialId, trials.id)),
  );
  const openTrialWithoutJob = exists(
    db
      .select({ one: sql`1` })
      .from(trials)
      .where(and(eq(trials.benchId, benches.id), inArray(trials.status, ["queued", "running"]), jobless)),
  );
  // Prepared once per connection on SQLite (selectIds): the unqueued-only check runs at every poll.
  return selectIds(db, o.unqueuedOnly ? "benchesWithoutJobs:unqueued" : "benchesWithoutJobs", () =>
    db
      .select({ id: benches.id })
      .from(benches)
      .leftJoin(queueBenches, eq(queueBenches.benchId, benches.id))
      .where(o.unqueuedOnly ? and(OPEN_BENCH, isNull(queueBenches.benchId), openTrialWithoutJob) : and(OPEN_BENCH, openTrialWithoutJob))
      .orderBy(benches.id),
  );
}

/**
 * Puts the bench's `running` trials that have no job back to `queued` (the worker of an older
 * version that ran them is gone: it claimed from the `trials` table), so they are enqueued with the
 * rest. Inside the enqueueing transaction. @returns how many
 */
export async function requeueJoblessRunning(tx: TxDb, benchId: number): Promise<number> {
  const rows = await tx
    .update(trials)
    .set({ status: "queued", workerId: null, startedAt: null })
    .where(
      and(
        eq(trials.benchId, benchId),
        eq(trials.status, "running"),
        notExists(
          tx
            .select({ one: sql`1` })
            .from(trialJobs)
            .where(eq(trialJobs.trialId, trials.id)),
        ),
      ),
    )
    .returning({ id: trials.id });
  return rows.length;
}
