/**
 * Finalizing a bench on either store (issue 20): once no trial is open, its results, end status and
 * retained cases are written in one transaction, exactly once.
 */
import { eq, inArray } from "drizzle-orm";
import type pg from "pg";
import { expect, it } from "vitest";
import { describeStores } from "../test-support/stores";
import { insertConfirmTrials, insertQueuedBench } from "../test-support/bench-rows";
import { benches, trials } from "../schema";
import { getBench, listBenches } from "./benches";
import { finalizeBench } from "./bench-finalize";

const NOW = 1_800_000_000_000;

describeStores("finalizeBench", (store) => {
  async function answerAll(benchId: number) {
    const db = store.db();
    await db
      .update(trials)
      .set({ status: "done", startedAt: NOW - 10, finishedAt: NOW - 5, latencyMs: 5, output: "a", costUsd: 0.001 })
      .where(eq(trials.benchId, benchId));
  }

  it("finishes a bench with no open trial: status, end time and summary in one write, once", async () => {
    const db = store.db();
    const { benchId, trialIds } = await insertQueuedBench(db, 3);
    await db
      .update(benches)
      .set({ settings: JSON.stringify({ concurrency: 2 }) })
      .where(eq(benches.id, benchId));
    await answerAll(benchId);
    expect(await finalizeBench(db, benchId, NOW)).toBe("finished");
    const b = (await getBench(db, benchId))!;
    expect(b.status).toBe("finished");
    expect(b.finishedAt).toBe(NOW);
    expect(b.summary?.candidates).toHaveLength(1);
    expect(b.summary?.candidates[0].stats.trials).toMatchObject({ total: trialIds.length, done: trialIds.length });
    expect(b.recommendation).not.toBeNull();
    expect(await finalizeBench(db, benchId, NOW + 1)).toBeNull();
    expect((await getBench(db, benchId))!.finishedAt).toBe(NOW);
  });

  it("leaves a bench with a queued or running trial alone", async () => {
    const db = store.db();
    const { benchId, trialIds } = await insertQueuedBench(db, 2);
    await answerAll(benchId);
    await db.update(trials).set({ status: "running" }).where(eq(trials.id, trialIds[1]));
    expect(await finalizeBench(db, benchId, NOW)).toBeNull();
    expect((await getBench(db, benchId))!).toMatchObject({ status: "queued", summary: null, finishedAt: null });
  });

  // Workers call finalize after every batch that leaves none of a bench's trials running on them
  // (every wave); waiting on the bench's row there held them up behind other workers' batches, and
  // their lock held those batches up in turn (bench/pg-workers.ts: the statement most seen waiting).
  (store.kind === "postgres" ? it : it.skip)("leaves a bench with an open trial alone without waiting for its row (PostgreSQL)", async () => {
    const db = store.db();
    const { benchId, trialIds } = await insertQueuedBench(db, 2);
    await db.update(trials).set({ status: "running" }).where(eq(trials.id, trialIds[1]));
    const pool = db.$client as unknown as pg.Pool;
    const blocker = await pool.connect();
    const probe = await pool.connect();
    try {
      // Another transaction holds the bench's row (a cancel being stored, a batch adding its spend).
      await blocker.query("BEGIN");
      await blocker.query("SELECT 1 FROM benches WHERE id = $1 FOR UPDATE", [benchId]);
      const waitsOnLock = async () => {
        for (;;) {
          const r = await probe.query("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
          if (r.rowCount) return "waited for the bench's row";
          await new Promise((r) => setImmediate(r));
        }
      };
      const finalizing = finalizeBench(db, benchId, NOW);
      expect(await Promise.race([finalizing, waitsOnLock()])).toBeNull();
    } finally {
      await blocker.query("ROLLBACK");
      blocker.release();
      probe.release();
    }
    expect((await getBench(db, benchId))!).toMatchObject({ status: "queued", finishedAt: null });
  });

  it("ends a bench whose cancellation was asked as cancelled", async () => {
    const db = store.db();
    const { benchId } = await insertQueuedBench(db, 2);
    await db.update(trials).set({ status: "skipped", error: "cancelled before it ran", finishedAt: NOW }).where(eq(trials.benchId, benchId));
    await db
      .update(benches)
      .set({ status: "running", cancelRequestedAt: NOW - 100 })
      .where(eq(benches.id, benchId));
    expect(await finalizeBench(db, benchId, NOW)).toBe("cancelled");
    expect((await getBench(db, benchId))!).toMatchObject({ status: "cancelled", finishedAt: NOW });
  });

  it("a cancel that arrives after the last trial stored its result: the bench ends finished with all its results and says the cancel came too late (issue #16)", async () => {
    // A tester saw a bench cancelled at "119 / 120" end as it would have: here the cancel is stored after every
    // trial has its result (the worker's poll had not finalized the bench yet), so no trial was cancelled.
    const db = store.db();
    const { benchId, trialIds } = await insertQueuedBench(db, 3);
    await answerAll(benchId);
    await db
      .update(benches)
      .set({ status: "running", cancelRequestedAt: NOW - 100, cancelledById: "u-ed", cancelledByEmail: "ed@example.com" })
      .where(eq(benches.id, benchId));
    expect(await finalizeBench(db, benchId, NOW)).toBe("finished");
    const b = (await getBench(db, benchId))!;
    expect(b).toMatchObject({ status: "finished", cancelRequestedAt: null, cancelledByEmail: null });
    expect(b.summary!.cancelTooLate).toEqual({ byEmail: "ed@example.com" });
    expect(b.recommendation!.headline).not.toMatch(/Partial bench/);
    expect(b.summary!.candidates[0].stats.trials).toMatchObject({ total: trialIds.length, done: trialIds.length });
  });

  it("a cancel after a rerun's last trial stored its result: the rerun's results count, and the cancel came too late", async () => {
    const db = store.db();
    const { benchId } = await insertQueuedBench(db, 2);
    await answerAll(benchId);
    await insertConfirmTrials(db, benchId, [{ status: "done", output: "kept", finishedAt: NOW }]);
    await db
      .update(benches)
      .set({ status: "running", cancelRequestedAt: NOW - 100, cancelledByEmail: "ed@example.com", rerunBase: 2, trialCount: 3 })
      .where(eq(benches.id, benchId));
    expect(await finalizeBench(db, benchId, NOW)).toBe("finished");
    const rerun = await db.select({ status: trials.status, error: trials.error }).from(trials).where(eq(trials.rerun, "confirm"));
    expect(rerun).toEqual([{ status: "done", error: null }]);
    const b = (await getBench(db, benchId))!;
    expect(b.summary!.cancelTooLate).toEqual({ byEmail: "ed@example.com" });
    expect(b.cancelledByEmail).toBeNull();
  });

  it("ends a bench whose rerun was cancelled as finished: only the rerun's trials were cancelled", async () => {
    const db = store.db();
    const { benchId } = await insertQueuedBench(db, 2);
    await answerAll(benchId);
    // A rerun added one trial to the 2 that had finished (rerun_base 2), then was cancelled before it ran.
    const [added] = await insertConfirmTrials(db, benchId, [{ status: "skipped", error: "cancelled before it ran", finishedAt: NOW }]);
    expect(added.id).toBeGreaterThan(0);
    await db
      .update(benches)
      .set({ status: "running", cancelRequestedAt: NOW - 100, rerunBase: 2, trialCount: 3 })
      .where(eq(benches.id, benchId));
    expect(await finalizeBench(db, benchId, NOW)).toBe("finished");
    const b = (await getBench(db, benchId))!;
    expect(b).toMatchObject({ status: "finished", finishedAt: NOW });
    expect(b.recommendation!.headline).not.toMatch(/Partial bench/);
    expect(b.summary?.candidates[0].stats.trials).toMatchObject({ total: 2, done: 2 });
  });

  it("a rerun cancelled after some of its trials finished: their results are kept on the trial but not counted (they cleared a blocking regression)", async () => {
    // Found by the new-team pass: Confirm, then Cancel after 4 of its 6 trials had finished — the
    // bench stayed finished, but those 4 trials were counted and cleared a suspected regression.
    const db = store.db();
    const { benchId } = await insertQueuedBench(db, 2);
    await answerAll(benchId);
    const rerunTrial = (status: "done" | "skipped", error: string | null) => ({
      repeat: status === "done" ? 2 : 3,
      status,
      error,
      output: status === "done" ? "kept" : null,
      passedChecks: status === "done" ? 1 : 0,
      finishedAt: NOW,
    });
    const added = await insertConfirmTrials(db, benchId, [rerunTrial("done", null), rerunTrial("skipped", "cancelled before it ran")]);
    await db
      .update(benches)
      .set({ status: "running", cancelRequestedAt: NOW - 100, rerunBase: 2, trialCount: 4 })
      .where(eq(benches.id, benchId));
    expect(await finalizeBench(db, benchId, NOW)).toBe("finished");
    const rows = await db
      .select({ id: trials.id, status: trials.status, error: trials.error, output: trials.output })
      .from(trials)
      .where(
        inArray(
          trials.id,
          added.map((a) => a.id),
        ),
      )
      .orderBy(trials.id);
    expect(rows.map((r) => [r.status, r.error, r.output])).toEqual([
      ["skipped", "cancelled: its rerun was cancelled before it ended, so this result is not counted", "kept"],
      ["skipped", "cancelled before it ran", null],
    ]);
    // The first run's trials alone make the results.
    const b = (await getBench(db, benchId))!;
    expect(b.summary?.candidates[0].stats.trials).toMatchObject({ done: 2 });
  });

  /**
   * A bench whose cap ($2.00, all spent) was raised to $5.00 for a rerun of one trial; the rerun
   * then ends (`cancelled`: Cancel was pressed) with `spentUsd` spent by the bench in all.
   */
  async function cappedRerunEnds(o: { cancelled: boolean; spentUsd: number }) {
    const db = store.db();
    const { benchId } = await insertQueuedBench(db, 2);
    await answerAll(benchId);
    await insertConfirmTrials(db, benchId, [
      {
        ...(o.cancelled ? { status: "skipped" as const, error: "cancelled before it ran" } : { status: "done" as const, output: "a", costUsd: 1 }),
        finishedAt: NOW,
      },
    ]);
    const spendCap = { usd: 5, trialEstimateUsd: 1, raisedForRerun: { fromUsd: 2, spentUsd: 2 } };
    await db
      .update(benches)
      .set({
        status: "running",
        cancelRequestedAt: o.cancelled ? NOW - 100 : null,
        rerunBase: 2,
        trialCount: 3,
        spentUsd: o.spentUsd,
        settings: JSON.stringify({ concurrency: 2, spendCap }),
      })
      .where(eq(benches.id, benchId));
    expect(await finalizeBench(db, benchId, NOW)).toBe("finished");
    return (await getBench(db, benchId))!.settings.spendCap;
  }

  it("a cap raised for a rerun goes back to what it was when the rerun is cancelled before it spent anything (issue #16)", async () => {
    expect(await cappedRerunEnds({ cancelled: true, spentUsd: 2 })).toEqual({ usd: 2, trialEstimateUsd: 1 });
  });

  it("a cap raised for a rerun stays raised once the rerun spent under it: cancelled after a trial spent, or run to its end", async () => {
    expect(await cappedRerunEnds({ cancelled: true, spentUsd: 2.5 })).toEqual({ usd: 5, trialEstimateUsd: 1, raisedFromUsd: 2 });
    expect(await cappedRerunEnds({ cancelled: false, spentUsd: 3 })).toEqual({ usd: 5, trialEstimateUsd: 1, raisedFromUsd: 2 });
  });

  it("says a bench the spend cap cut short is partial, and the next bench compares with the last complete one", async () => {
    const db = store.db();
    const complete = await insertQueuedBench(db, 2);
    await answerAll(complete.benchId);
    expect(await finalizeBench(db, complete.benchId, NOW)).toBe("finished");
    // The cap let 1 of 4 trials start: the other 3 were skipped as budget.
    const capped = await insertQueuedBench(db, 4);
    await answerAll(capped.benchId);
    await db
      .update(trials)
      .set({ status: "skipped", error: "budget: the spend cap of $0.01 would be passed ($0.01 spent)", output: null })
      .where(inArray(trials.id, capped.trialIds.slice(1)));
    expect(await finalizeBench(db, capped.benchId, NOW)).toBe("finished");
    const cut = (await getBench(db, capped.benchId))!;
    expect(cut.recommendation!.headline).toMatch(/^Partial bench, the spend cap stopped it after 1 of 4 trials \(3 skipped as budget\)\. /);
    // Issue #16: it recommends nothing (it recommended its candidate "with no regression" about cases that never ran),
    // says how many of its cases each comparison covers, and the bench list marks it partial.
    expect(cut.recommendation!.recommendedCandidateId).toBeNull();
    expect(cut.recommendation!.partial).toEqual({ finished: 1, total: 4, budgetSkipped: 3 });
    expect(cut.recommendation!.headline).toContain(
      `No candidate is recommended: no check was scored. Its comparisons cover only the cases both sides scored, of 4: m vs the last bench (#${complete.benchId}) 0.`,
    );
    expect(cut.recommendation!.headline).not.toMatch(/no regression|breaks no check/);
    const list = await listBenches(db, cut.systemId);
    expect(list.find((b) => b.id === capped.benchId)).toMatchObject({ status: "finished", partial: true, candidates: [{ recommended: false }] });
    expect(list.find((b) => b.id === complete.benchId)).toMatchObject({ status: "finished", partial: false });
    const next = await insertQueuedBench(db, 2);
    await answerAll(next.benchId);
    expect(await finalizeBench(db, next.benchId, NOW)).toBe("finished");
    expect((await getBench(db, next.benchId))!.summary!.referenceBenchId).toBe(complete.benchId);
  });

  it("of two finalizers at once, exactly one ends the bench", async () => {
    const db = store.db();
    const { benchId } = await insertQueuedBench(db, 2);
    await answerAll(benchId);
    const ends = await Promise.all([finalizeBench(db, benchId, NOW), finalizeBench(db, benchId, NOW + 1)]);
    expect(ends.filter((e) => e === "finished")).toHaveLength(1);
    expect(ends.filter((e) => e === null)).toHaveLength(1);
    const b = (await getBench(db, benchId))!;
    expect(b.finishedAt).toBe(ends[0] === "finished" ? NOW : NOW + 1);
    expect(b.summary?.candidates[0].stats.trials.done).toBe(2);
  });
});
