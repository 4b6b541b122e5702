/** db/bulk-insert.ts on both stores (issue 20): values, order, ids across statements, rollback. */
import { asc } from "drizzle-orm";
import { expect, it } from "vitest";
import { insertRows } from "./bulk-insert";
import { isUniqueViolation } from "./dialect";
import { cases, prompts, systems } from "./schema";
import { describeStores } from "./test-support/stores";
import { transaction } from "./transaction";

const AT = 1_733_000_000_000;

describeStores("insertRows", (store) => {
  async function promptId(): Promise<number> {
    const db = store.db();
    await db.insert(systems).values({ id: "s", name: "S", createdAt: AT });
    const [p] = await db.insert(prompts).values({ systemId: "s", name: "p", createdAt: AT }).returning({ id: prompts.id });
    return p.id;
  }
  const columns = [cases.caseKey, cases.systemId, cases.promptId, cases.source, cases.userCorrected, cases.currentRevisionId, cases.createdAt, cases.updatedAt];

  it("stores every value as the column declares it (text, numbers, booleans, null), ids in the rows' order, across statements", async () => {
    const db = store.db();
    const pid = await promptId();
    const keys = Array.from({ length: 5_003 }, (_, i) => (i === 1 ? `it's "q" — ünïcode ${i}` : i === 2 ? "007" : `k-${i}`));
    const returned = await insertRows<{ id: number; case_key: string }>(
      db,
      cases,
      columns,
      keys.map((k, i) => [k, "s", pid, "custom", i % 2 === 0, i === 0 ? null : i, AT + i, AT]),
      [cases.id, cases.caseKey],
    );
    expect(returned.length).toBe(5_003);
    const rows = await db.select().from(cases).orderBy(asc(cases.id));
    expect(rows.map((r) => r.caseKey)).toEqual(keys);
    expect(rows[0]).toMatchObject({
      caseKey: "k-0",
      userCorrected: true,
      currentRevisionId: null,
      createdAt: AT,
      status: "active",
      revisionNumber: 1,
      removedAt: null,
    });
    expect(rows[1]).toMatchObject({ caseKey: `it's "q" — ünïcode 1`, userCorrected: false, currentRevisionId: 1, createdAt: AT + 1 });
    expect(rows[5_002].createdAt).toBe(AT + 5_002);
    expect(new Map(returned.map((r) => [r.case_key, Number(r.id)]))).toEqual(new Map(rows.map((r) => [r.caseKey, r.id])));
  });

  it("a failing row fails its statement and the caller's transaction rolls everything back", async () => {
    const db = store.db();
    const pid = await promptId();
    const row = (key: string) => [key, "s", pid, "custom", false, null, AT, AT];
    await expect(
      transaction(db, async (tx) => {
        await insertRows(tx, cases, columns, [row("a"), row("b")]);
        await insertRows(tx, cases, columns, [row("c"), row("c")]); // the live case key is unique per prompt
      }),
    ).rejects.toSatisfy(isUniqueViolation);
    expect(await db.select().from(cases)).toEqual([]);
  });
});
