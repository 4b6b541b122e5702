/**
 * The audit trail's reads and its write inside a change's transaction (issue 19), on both stores
 * (issue 20).
 */
import { expect, it } from "vitest";
import type { Db } from "../client";
import { activity } from "../schema";
import { describeStores } from "../test-support/stores";
import { transaction } from "../transaction";
import { activityFacets, listActivity, recordActivityTx } from "./activity";

const ana = { userId: "u-ana", email: "ana@example.test" };
const bo = { userId: "u-bo", email: "bo@example.test" };
const T0 = 1_733_000_000_000;

/** Five changes by two people, one minute apart (ids in the same order). */
async function seed(db: Db): Promise<void> {
  await transaction(db, async (tx) => {
    await recordActivityTx(tx, ana, { action: "case.add", subjectType: "case", subjectId: 1, systemId: "acme", detail: "cap-01 (custom)" }, T0);
    await recordActivityTx(tx, bo, { action: "case.revise", subjectType: "case", subjectId: 1, systemId: "acme", detail: "cap-01 r2" }, T0 + 60_000);
    await recordActivityTx(tx, ana, { action: "bench.launch", subjectType: "bench", subjectId: 7, systemId: "acme", detail: "nightly" }, T0 + 120_000);
    await recordActivityTx(tx, bo, { action: "bench.cancel", subjectType: "bench", subjectId: 7, systemId: "acme" }, T0 + 180_000);
    await recordActivityTx(tx, ana, { action: "dataset.version", subjectType: "dataset", subjectId: "faq", detail: "x".repeat(300) }, T0 + 240_000);
  });
}

describeStores("activity", (store) => {
  it("records a change's row inside its transaction: committed with it, rolled back with it, none without an author", async () => {
    const db = store.db();
    await transaction(db, async (tx) => {
      await recordActivityTx(tx, ana, { action: "case.add", subjectType: "case", subjectId: 3, systemId: "acme", detail: "cap-03" }, T0);
      await recordActivityTx(tx, null, { action: "case.add", subjectType: "case", subjectId: 4 }, T0);
    });
    await expect(
      transaction(db, async (tx) => {
        await recordActivityTx(tx, bo, { action: "case.remove", subjectType: "case", subjectId: 3 }, T0 + 1);
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    const rows = await db.select().from(activity);
    expect(rows).toEqual([
      {
        id: rows[0].id,
        at: T0,
        actorId: "u-ana",
        actorEmail: "ana@example.test",
        action: "case.add",
        subjectType: "case",
        subjectId: "3",
        systemId: "acme",
        detail: "cap-03",
      },
    ]);
  });

  it("filters by actor (id or e-mail), action, subject and time range, and counts the matches", async () => {
    const db = store.db();
    await seed(db);
    const all = await listActivity(db, {});
    expect(all.total).toBe(5);
    expect(all.rows.map((r) => r.action)).toEqual(["dataset.version", "bench.cancel", "bench.launch", "case.revise", "case.add"]);
    expect(all.rows[0].detail).toHaveLength(200);
    const byBo = await listActivity(db, { actor: "bo@example.test" });
    expect([byBo.total, byBo.rows.map((r) => r.action)]).toEqual([2, ["bench.cancel", "case.revise"]]);
    expect((await listActivity(db, { actor: "u-bo" })).rows.map((r) => r.id)).toEqual(byBo.rows.map((r) => r.id));
    const bench = await listActivity(db, { subjectType: "bench", subjectId: "7" });
    expect(bench.rows.map((r) => [r.action, r.actorEmail])).toEqual([
      ["bench.cancel", "bo@example.test"],
      ["bench.launch", "ana@example.test"],
    ]);
    expect((await listActivity(db, { action: "case.add" })).rows.map((r) => r.subjectId)).toEqual(["1"]);
    const window = await listActivity(db, { from: T0 + 60_000, to: T0 + 180_000 });
    expect([window.total, window.rows.map((r) => r.at)]).toEqual([3, [T0 + 180_000, T0 + 120_000, T0 + 60_000]]);
    expect(await listActivity(db, { from: T0 + 600_000 })).toEqual({ rows: [], total: 0 });
  });

  it("sorts by a column either way and pages, the total counting every match", async () => {
    const db = store.db();
    await seed(db);
    const page2 = await listActivity(db, {}, { sort: "at", dir: "asc", page: 2, pageSize: 2 });
    expect([page2.total, page2.rows.map((r) => r.action)]).toEqual([5, ["bench.launch", "bench.cancel"]]);
    const byAction = await listActivity(db, {}, { sort: "action", dir: "asc" });
    expect(byAction.rows.map((r) => r.action)).toEqual(["bench.cancel", "bench.launch", "case.add", "case.revise", "dataset.version"]);
    const byActor = await listActivity(db, {}, { sort: "actor", dir: "desc" });
    // Ties (same actor) newest first.
    expect(byActor.rows.map((r) => [r.actorEmail, r.action])).toEqual([
      ["bo@example.test", "bench.cancel"],
      ["bo@example.test", "case.revise"],
      ["ana@example.test", "dataset.version"],
      ["ana@example.test", "bench.launch"],
      ["ana@example.test", "case.add"],
    ]);
  });

  it("orders changes made in the same millisecond by the order they were made", async () => {
    const db = store.db();
    await transaction(db, async (tx) => {
      await recordActivityTx(tx, ana, { action: "first", subjectType: "tie", subjectId: "t1" }, T0);
      await recordActivityTx(tx, ana, { action: "second", subjectType: "tie", subjectId: "t1" }, T0);
    });
    expect((await listActivity(db, { subjectType: "tie" }, { sort: "at", dir: "asc" })).rows.map((r) => r.action)).toEqual(["first", "second"]);
    expect((await listActivity(db, { subjectType: "tie" }, { sort: "at", dir: "desc" })).rows.map((r) => r.action)).toEqual(["second", "first"]);
  });

  it("lists the distinct actors, actions and subject types for the filter menus, sorted", async () => {
    const db = store.db();
    expect(await activityFacets(db)).toEqual({ actors: [], actions: [], subjectTypes: [] });
    await seed(db);
    expect(await activityFacets(db)).toEqual({
      actors: ["ana@example.test", "bo@example.test"],
      actions: ["bench.cancel", "bench.launch", "case.add", "case.revise", "dataset.version"],
      subjectTypes: ["bench", "case", "dataset"],
    });
  });
});
