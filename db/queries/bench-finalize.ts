/**
 * Finalizing a bench on either store (issue 20): when none of its trials is open (queued or
 * running), its results (lib/bench results via computeBenchResults), end status (`finished`, or
 * `cancelled` when a cancel was asked during the launched run: lib/bench/end-status.ts), summary, recommendation and retained cases are written in
 * ONE transaction. SQLite's trial queue keeps its own (db/queries/trial-queue.ts); PostgreSQL's job
 * worker uses this one.
 */
import { and, asc, eq, gt, inArray } from "drizzle-orm";
import type { Db } from "../client";
import { first } from "../rows";
import { transaction } from "../transaction";
import { benches, trials } from "../schema";
import { computeBenchResults } from "./bench-results";
import { retainFailingCasesIn } from "./retention";
import { benchEndStatus } from "@/lib/bench/end-status";

const OPEN = ["queued", "running"] as const;

/** The reason on a trial of a cancelled rerun that finished anyway (its result stays stored, uncounted). */
const CANCELLED_RERUN = "cancelled: its rerun was cancelled before it ended, so this result is not counted";

/**
 * Ends bench `benchId` if it is still open and none of its trials is.
 * Of two workers finalizing at once, one ends it: the end is a conditional update of the bench's
 * row, made before the results are computed (PostgreSQL's row lock makes the other wait, then find
 * it ended), and the other's transaction writes nothing.
 * @param now the end time, ms since the epoch
 * @returns the status it ended with, or null (an open trial, already ended, or no such bench)
 */
export async function finalizeBench(db: Db, benchId: number, now: number): Promise<"finished" | "cancelled" | null> {
  return transaction(db, async (tx) => {
    const b = await first(
      tx.select({ status: benches.status, cancel: benches.cancelRequestedAt, rerunBase: benches.rerunBase }).from(benches).where(eq(benches.id, benchId)),
    );
    if (!b || (b.status !== "queued" && b.status !== "running")) return null;
    const open = await first(
      tx
        .select({ id: trials.id })
        .from(trials)
        .where(and(eq(trials.benchId, benchId), inArray(trials.status, [...OPEN])))
        .limit(1),
    );
    if (open) return null;
    // A cancel during a rerun cancels only the rerun's trials: the bench ends finished again.
    const status = benchEndStatus({ cancelRequested: b.cancel != null, rerunBase: b.rerunBase });
    // End it first: a second finalizer waits on the row (PostgreSQL) and then finds it ended, instead
    // of computing the results too.
    const ended = await tx
      .update(benches)
      .set({ status, finishedAt: now })
      .where(and(eq(benches.id, benchId), inArray(benches.status, [...OPEN])))
      .returning({ id: benches.id });
    if (ended.length !== 1) return null;
    // A rerun cancelled before it ended leaves the bench's results as they were before it: trials of
    // the rerun that finished anyway keep what they stored (output, checks) but are not counted — a
    // part of a Confirm round could otherwise clear a blocking regression nobody confirmed.
    if (b.cancel != null && b.rerunBase > 0) {
      const last = await first(
        tx
          .select({ id: trials.id })
          .from(trials)
          .where(eq(trials.benchId, benchId))
          .orderBy(asc(trials.id))
          .limit(1)
          .offset(b.rerunBase - 1),
      );
      if (last)
        await tx
          .update(trials)
          .set({ status: "skipped", error: CANCELLED_RERUN })
          .where(and(eq(trials.benchId, benchId), gt(trials.id, last.id), inArray(trials.status, ["done", "error"])));
    }
    const { summary, recommendation } = await computeBenchResults(tx, benchId);
    if (status === "finished") summary.retained = await retainFailingCasesIn(tx, benchId, recommendation, summary.baselineCandidateId);
    await tx
      .update(benches)
      .set({ summary: JSON.stringify(summary), recommendation: JSON.stringify(recommendation) })
      .where(eq(benches.id, benchId));
    return status;
  });
}
