/**
 * The progress figures per candidate (the progress clock's rates: a bench mixing recorded answers,
 * which end at once, with live calls, which take seconds, was estimated at one overall rate).
 */
import { and, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { first } from "../rows";
import { benchCandidates, benchCases, benches, trials } from "../schema";
import { describeStores } from "../test-support/stores";
import { insertQueuedBench } from "../test-support/bench-rows";
import { transaction } from "../transaction";
import { getBench, getBenchProgress } from "./benches";
import { addRerunTrials } from "./bench-reruns";

describeStores("getBenchProgress per candidate", (store) => {
  it("counts each candidate's trials, ended ones, and those ended since the run started", async () => {
    const db = store.db();
    const { benchId, trialIds } = await transaction(db, (tx) => insertQueuedBench(tx, 4));
    const live = (await first(db.select({ id: trials.candidateId }).from(trials).where(eq(trials.id, trialIds[0]))))!.id;
    const recorded = (await first(
      db.insert(benchCandidates).values({ benchId, position: 1, kind: "recorded", label: "r" }).returning({ id: benchCandidates.id }),
    ))!.id;
    const cases = await db.select({ id: benchCases.id }).from(benchCases).where(eq(benchCases.benchId, benchId));
    const START = 1_700_000_100_000;
    await db.update(benches).set({ status: "running", startedAt: START, trialCount: 8 }).where(eq(benches.id, benchId));
    // The recorded candidate: one trial skipped at the launch (no recorded answer), three done in the run.
    await db
      .insert(trials)
      .values(
        cases.map((c, i) =>
          i === 0
            ? { benchId, candidateId: recorded, benchCaseId: c.id, repeat: 0, status: "skipped" as const, finishedAt: START - 50 }
            : { benchId, candidateId: recorded, benchCaseId: c.id, repeat: 0, status: "done" as const, finishedAt: START + 10 },
        ),
      );
    // The live one: one done, one errored, one running, one queued.
    await db
      .update(trials)
      .set({ status: "done", finishedAt: START + 4_000 })
      .where(eq(trials.id, trialIds[0]));
    await db
      .update(trials)
      .set({ status: "error", finishedAt: START + 6_000 })
      .where(eq(trials.id, trialIds[1]));
    await db.update(trials).set({ status: "running" }).where(eq(trials.id, trialIds[2]));
    const p = (await getBenchProgress(db, benchId))!;
    expect(p).toMatchObject({ total: 8, queued: 1, running: 1, done: 4, error: 1, skipped: 1 });
    expect(p.candidates).toEqual(
      [
        { candidateId: live, total: 4, ended: 2, endedInRun: 2 },
        { candidateId: recorded, total: 4, ended: 4, endedInRun: 3 },
      ].sort((a, b) => a.candidateId - b.candidateId),
    );
    // Still queued (no run started): nothing ended in it.
    await db.update(benches).set({ status: "queued", startedAt: null }).where(eq(benches.id, benchId));
    expect((await getBenchProgress(db, benchId))!.candidates.map((c) => c.endedInRun)).toEqual([0, 0]);
    // Ended: the clock needs no rates; the counts stay.
    await db
      .update(benches)
      .set({ status: "cancelled", startedAt: START, finishedAt: START + 9_000 })
      .where(eq(benches.id, benchId));
    expect(await getBenchProgress(db, benchId)).toMatchObject({ total: 8, queued: 1, running: 1, done: 4, error: 1, skipped: 1, candidates: [] });
  });

  it("counts the skipped trials of a rerun that was cancelled apart from the other skips (issue #16: '104 skipped' beside '98 trials skipped: budget' and no word on the other 6)", async () => {
    const db = store.db();
    const { benchId, trialIds } = await transaction(db, (tx) => insertQueuedBench(tx, 6));
    // The launch: 2 done, 1 skipped as budget; then a rerun of 3 trials, cancelled: one before it ran, one after it ran, one done before the cancel ended it.
    await db.update(benches).set({ status: "finished", startedAt: 1_000, finishedAt: 9_000, rerunBase: 3 }).where(eq(benches.id, benchId));
    await db.update(trials).set({ status: "done" }).where(eq(trials.id, trialIds[0]));
    await db.update(trials).set({ status: "done" }).where(eq(trials.id, trialIds[1]));
    await db.update(trials).set({ status: "skipped", error: "budget" }).where(eq(trials.id, trialIds[2]));
    await db.update(trials).set({ status: "skipped", rerun: "confirm", error: "cancelled before it ran" }).where(eq(trials.id, trialIds[3]));
    await db
      .update(trials)
      .set({ status: "skipped", rerun: "confirm", error: "cancelled: its rerun was cancelled before it ended, so this result is not counted" })
      .where(eq(trials.id, trialIds[4]));
    await db.update(trials).set({ status: "skipped", rerun: "error", error: "budget" }).where(eq(trials.id, trialIds[5]));
    expect(await getBenchProgress(db, benchId)).toMatchObject({ skipped: 4, skippedRerunCancelled: 2 });
    // A bench no rerun reopened has none (and is not asked).
    await db.update(benches).set({ rerunBase: 0 }).where(eq(benches.id, benchId));
    expect(await getBenchProgress(db, benchId)).toMatchObject({ skipped: 4, skippedRerunCancelled: 0 });
  });

  it("times the launch run apart from the reruns that reopened it, on both stores: its first trial's start and its last one's end (issue #16 §3)", async () => {
    const db = store.db();
    const { benchId, trialIds } = await transaction(db, (tx) => insertQueuedBench(tx, 3, 2));
    // The launch: six trials between 1,700,000,010,000 and 1,700,000,090,000; one errored.
    const T = 1_700_000_000_000;
    for (const [i, id] of trialIds.entries())
      await db
        .update(trials)
        .set({ status: i === 4 ? "error" : "done", startedAt: T + 10_000 + i * 1_000, finishedAt: T + 80_000 + i * 2_000 })
        .where(eq(trials.id, id));
    await db
      .update(benches)
      .set({ status: "finished", startedAt: T + 9_000, finishedAt: T + 95_000, trialCount: 6 })
      .where(eq(benches.id, benchId));
    expect((await getBenchProgress(db, benchId))!.launchRun).toBeUndefined();
    const errored = (await first(db.select().from(trials).where(eq(trials.id, trialIds[4]))))!;
    await addRerunTrials(db, benchId, [{ candidateId: errored.candidateId, benchCaseId: errored.benchCaseId, repeat: 1, rerun: "error", rerunOf: errored.id }]);
    const launchRun = { startedAt: T + 10_000, finishedAt: T + 90_000 };
    const reopened = (await getBenchProgress(db, benchId))!;
    expect(reopened).toMatchObject({ status: "queued", total: 7, queued: 1, done: 5, error: 1, finishedBefore: 6, launchRun });
    expect(typeof reopened.launchRun!.startedAt).toBe("number"); // PostgreSQL's bigint aggregates come back as text
    // The rerun's trial runs after it: the launch run's times stay its own.
    await db
      .update(trials)
      .set({ status: "done", startedAt: T + 200_000, finishedAt: T + 210_000 })
      .where(and(eq(trials.benchId, benchId), eq(trials.rerun, "error")));
    await db
      .update(benches)
      .set({ status: "finished", finishedAt: T + 211_000 })
      .where(eq(benches.id, benchId));
    expect((await getBenchProgress(db, benchId))!).toMatchObject({ done: 6, error: 1, errorsRerun: 1, launchRun });
    // A second rerun reopens it again: still the launch's times.
    const confirm = (await first(db.select().from(trials).where(eq(trials.id, trialIds[0]))))!;
    await addRerunTrials(db, benchId, [{ candidateId: confirm.candidateId, benchCaseId: confirm.benchCaseId, repeat: 2, rerun: "confirm", rerunOf: null }]);
    expect((await getBenchProgress(db, benchId))!).toMatchObject({ status: "queued", total: 8, finishedBefore: 7, errorsRerun: 1, launchRun });
    // A rerun that did not count (skipped) stands in for nothing: the errored trial is an error of the bench again.
    await db
      .update(trials)
      .set({ status: "skipped", error: "cancelled: its rerun was cancelled before it ended, so this result is not counted" })
      .where(and(eq(trials.benchId, benchId), eq(trials.rerun, "error")));
    expect((await getBenchProgress(db, benchId))!).toMatchObject({ error: 1, errorsRerun: 0, launchRun });
  });

  it("keeps the launch run's times with the bench when a rerun reopens it, and reads a bench reopened before they were kept from its trials", async () => {
    const db = store.db();
    const { benchId, trialIds } = await transaction(db, (tx) => insertQueuedBench(tx, 2));
    const T = 1_700_000_000_000;
    for (const [i, id] of trialIds.entries())
      await db
        .update(trials)
        .set({ status: "done", startedAt: T + 1_000 * (i + 1), finishedAt: T + 5_000 * (i + 1) })
        .where(eq(trials.id, id));
    await db
      .update(benches)
      .set({ status: "finished", startedAt: T, finishedAt: T + 11_000 })
      .where(eq(benches.id, benchId));
    const t = (await first(db.select().from(trials).where(eq(trials.id, trialIds[1]))))!;
    await addRerunTrials(db, benchId, [{ candidateId: t.candidateId, benchCaseId: t.benchCaseId, repeat: 1, rerun: "confirm", rerunOf: null }]);
    // Kept once, as the rerun reopened it: the poll reads them from the bench's row, not from its every trial.
    expect((await getBench(db, benchId))!.settings.launchRun).toEqual({ startedAt: T + 1_000, finishedAt: T + 10_000 });
    // The poll reads the kept times, not the trials: a launch trial changed behind its back (no path does) does not show.
    await db
      .update(trials)
      .set({ startedAt: T + 500 })
      .where(eq(trials.id, trialIds[0]));
    expect((await getBenchProgress(db, benchId))!.launchRun).toEqual({ startedAt: T + 1_000, finishedAt: T + 10_000 });
    // A bench a rerun reopened before the times were kept (no launchRun in its settings): read from its launch trials.
    await db.update(benches).set({ settings: "{}" }).where(eq(benches.id, benchId));
    expect((await getBenchProgress(db, benchId))!.launchRun).toEqual({ startedAt: T + 500, finishedAt: T + 10_000 });
  });
});
