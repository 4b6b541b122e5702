/**
 * What the bench page's progress poll returns (issue #16): besides the counts, what the bench spent
 * and the trials its spend cap skipped, so the spend line follows the run (it said "spent $0.00"
 * while 5–12 trials were done: it was rendered once).
 */
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { benches, trials } from "@/db/schema";
import { describeStores } from "@/db/test-support/stores";
import { insertQueuedBench } from "@/db/test-support/bench-rows";
import { transaction } from "@/db/transaction";
import { BUDGET_SKIP } from "@/lib/bench/budget";
import { benchProgressPoll } from "./progress-poll";

describeStores("the progress poll", (store) => {
  it("carries the spend line's figures, as JSON: spent so far, per candidate, and the trials skipped as budget", async () => {
    const db = store.db();
    const { benchId, trialIds } = await transaction(db, (tx) => insertQueuedBench(tx, 4));
    const before = (await benchProgressPoll(db, benchId))!;
    expect(before.spend).toMatchObject({ spentUsd: 0, spentTrials: 0, budgetSkippedTotal: 0 });
    // Mid-run: two trials answered ($0.94 between them), one skipped by the cap, one running.
    await db.update(benches).set({ status: "running", startedAt: 1_700_000_000_000, spentUsd: 0.94, spentTrials: 2 }).where(eq(benches.id, benchId));
    await db.update(trials).set({ status: "done", finishedAt: 1_700_000_001_000 }).where(eq(trials.id, trialIds[0]));
    await db.update(trials).set({ status: "done", finishedAt: 1_700_000_002_000 }).where(eq(trials.id, trialIds[1]));
    await db.update(trials).set({ status: "skipped", error: BUDGET_SKIP, finishedAt: 1_700_000_002_000 }).where(eq(trials.id, trialIds[2]));
    await db.update(trials).set({ status: "running" }).where(eq(trials.id, trialIds[3]));
    const poll = (await benchProgressPoll(db, benchId))!;
    expect(poll).toMatchObject({ id: benchId, status: "running", done: 2, skipped: 1, running: 1 });
    expect(poll.spend).toMatchObject({ spentUsd: 0.94, spentTrials: 2, budgetSkippedTotal: 1 });
    expect(poll.spend.candidates).toHaveLength(1);
    // What the browser reads is what the server computed (no Map lost on the way).
    expect(JSON.parse(JSON.stringify(poll))).toEqual(poll);
  });

  it("is null for a bench that does not exist", async () => {
    expect(await benchProgressPoll(store.db(), 999)).toBeNull();
  });
});
