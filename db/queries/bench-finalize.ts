/**
 * Finalizing a bench on either store (issue 20): when none of its trials is open (queued or
 * running), its results (lib/bench results via computeBenchResults), end status (`finished`, or
 * `cancelled` when a cancel was asked during the launched run: lib/bench/end-status.ts), summary, recommendation and retained cases are written in
 * ONE transaction. SQLite's trial queue keeps its own (db/queries/trial-queue.ts); PostgreSQL's job
 * worker uses this one.
 */
import { and, asc, eq, gt, inArray, like, sql } from "drizzle-orm";
import type { Db } from "../client";
import { first } from "../rows";
import { transaction, type TxDb } from "../transaction";
import { isPostgres, rawRows } from "../dialect";
import { benches, trials } from "../schema";
import { computeBenchResults } from "./bench-results";
import { retainFailingCasesIn } from "./retention";
import { benchEndStatus } from "@/lib/bench/end-status";
import { capAfterRerun } from "@/lib/bench/rerun/spend-cap";
import type { BenchSettings } from "./benches";

const OPEN = ["queued", "running"] as const;

/** Whether bench `benchId` has a queued or running trial. */
async function openTrialOf(db: Db | TxDb, benchId: number): Promise<boolean> {
  const open = await first(
    db
      .select({ id: trials.id })
      .from(trials)
      .where(and(eq(trials.benchId, benchId), inArray(trials.status, [...OPEN])))
      .limit(1),
  );
  return open !== undefined;
}

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
  // A bench with an open trial is left alone before any lock: job workers call this after every
  // batch that leaves none of a bench's trials running on them, and waiting for its row there held
  // them (and other workers' batches, which add spend to that row) up. Only a filter: whoever stores
  // the last open trial's result calls this after its commit, and the check under the lock decides.
  if (await openTrialOf(db, benchId)) return null;
  return transaction(db, async (tx) => {
    // PostgreSQL: the bench's row first, so that a cancel (requestCancel locks it too) is stored wholly before this
    // end, or finds the bench ended; SQLite's transactions run one at a time.
    if (isPostgres(tx)) await rawRows(tx, sql`SELECT 1 FROM benches WHERE id = ${benchId} FOR UPDATE`);
    const row = await first(
      tx
        .select({
          status: benches.status,
          cancel: benches.cancelRequestedAt,
          cancelledByEmail: benches.cancelledByEmail,
          rerunBase: benches.rerunBase,
          settings: benches.settings,
          spentUsd: benches.spentUsd,
        })
        .from(benches)
        .where(eq(benches.id, benchId)),
    );
    if (!row || (row.status !== "queued" && row.status !== "running")) return null;
    if (await openTrialOf(tx, benchId)) return null;
    // A rerun's trials are those after the first rerun_base: the last trial before them.
    const last =
      row.rerunBase > 0
        ? await first(
            tx
              .select({ id: trials.id })
              .from(trials)
              .where(eq(trials.benchId, benchId))
              .orderBy(asc(trials.id))
              .limit(1)
              .offset(row.rerunBase - 1),
          )
        : undefined;
    // A cancel stored after this run's last trial stored its result cancelled nothing: the run ends as it would have,
    // with all its results, and the bench says the cancel came too late (issue #16: "cancelled at 119 / 120").
    const tooLate = row.cancel != null && !(await cancelledAnyTrial(tx, benchId, last?.id));
    if (tooLate) await tx.update(benches).set({ cancelRequestedAt: null, cancelledById: null, cancelledByEmail: null }).where(eq(benches.id, benchId));
    const cancelled = row.cancel != null && !tooLate;
    // A cancel during a rerun cancels only the rerun's trials: the bench ends finished again.
    const status = benchEndStatus({ cancelRequested: cancelled, rerunBase: row.rerunBase });
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
    if (cancelled && last)
      await tx
        .update(trials)
        .set({ status: "skipped", error: CANCELLED_RERUN })
        .where(and(eq(trials.benchId, benchId), gt(trials.id, last.id), inArray(trials.status, ["done", "error"])));
    // A cap raised for this rerun: back to what it was when the rerun was cancelled before it spent anything (issue #16).
    const settings = JSON.parse(row.settings) as BenchSettings;
    if (settings.spendCap?.raisedForRerun) {
      settings.spendCap = capAfterRerun(settings.spendCap, { cancelled: cancelled && row.rerunBase > 0, spentUsd: row.spentUsd });
      await tx
        .update(benches)
        .set({ settings: JSON.stringify(settings) })
        .where(eq(benches.id, benchId));
    }
    const { summary, recommendation } = await computeBenchResults(tx, benchId);
    if (status === "finished") summary.retained = await retainFailingCasesIn(tx, benchId, recommendation, summary.baselineCandidateId);
    if (tooLate) summary.cancelTooLate = { byEmail: row.cancelledByEmail };
    await tx
      .update(benches)
      .set({ summary: JSON.stringify(summary), recommendation: JSON.stringify(recommendation) })
      .where(eq(benches.id, benchId));
    return status;
  });
}

/**
 * Whether a cancel stopped any trial of bench `benchId` after trial `afterId` (all its trials when
 * undefined): one skipped before it ran or while running, or whose thread stopped as it was cancelled.
 */
async function cancelledAnyTrial(tx: TxDb, benchId: number, afterId: number | undefined): Promise<boolean> {
  const hit = await first(
    tx
      .select({ id: trials.id })
      .from(trials)
      .where(
        and(
          eq(trials.benchId, benchId),
          afterId === undefined ? undefined : gt(trials.id, afterId),
          inArray(trials.status, ["skipped", "error"]),
          like(trials.error, "%cancelled%"),
        ),
      )
      .limit(1),
  );
  return hit !== undefined;
}
