import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { countWhere, isUniqueViolation, jsonText, likeAnyCase, rawRows } from "./dialect";
import { first } from "./rows";
import { cases, prompts, systems } from "./schema";
import { describeStores } from "./test-support/stores";

describeStores("dialect helpers", (store) => {
  async function seed() {
    const db = store.db();
    await db.insert(systems).values({ id: "s", name: "S", createdAt: 1 });
    const p = await first(db.insert(prompts).values({ systemId: "s", name: "Support Bot", createdAt: 1 }).returning());
    const row = (caseKey: string, origin: object | null) => ({
      caseKey,
      systemId: "s",
      promptId: p!.id,
      source: "custom" as const,
      origin: origin && JSON.stringify(origin),
      createdAt: 1,
      updatedAt: 1,
    });
    await db.insert(cases).values([row("a", { kind: "dataset", row: 3 }), row("b", { kind: "custom" }), row("c", null)]);
    return db;
  }

  it("isUniqueViolation recognises the store's duplicate-key error", async () => {
    const db = await seed();
    const dup = await db
      .insert(systems)
      .values({ id: "s", name: "again", createdAt: 2 })
      .then(() => null)
      .catch((e: unknown) => e);
    expect(isUniqueViolation(dup)).toBe(true);
    expect(isUniqueViolation(new Error("other"))).toBe(false);
  });

  it("likeAnyCase ignores case on both stores", async () => {
    const db = await seed();
    expect(
      await db
        .select({ name: prompts.name })
        .from(prompts)
        .where(likeAnyCase(db, prompts.name, "%support%")),
    ).toEqual([{ name: "Support Bot" }]);
  });

  it("countWhere and jsonText", async () => {
    const db = await seed();
    const r = await first(
      db.select({ datasets: countWhere(sql`${jsonText(db, cases.origin, "kind")} = 'dataset'`), total: sql<number>`count(*)`.mapWith(Number) }).from(cases),
    );
    expect(r).toEqual({ datasets: 1, total: 3 });
    const kinds = await db
      .select({ k: jsonText(db, cases.origin, "kind") })
      .from(cases)
      .orderBy(cases.caseKey);
    expect(kinds.map((x) => x.k)).toEqual(["dataset", "custom", null]);
  });

  it("rawRows returns objects keyed by the selected names", async () => {
    const db = await seed();
    const rows = await rawRows<{ key: string; n: number }>(
      db,
      sql`SELECT case_key AS key, count(*) AS n FROM ${cases} WHERE ${eq(cases.systemId, "s")} GROUP BY case_key ORDER BY case_key`,
    );
    expect(rows).toEqual([
      { key: "a", n: 1 },
      { key: "b", n: 1 },
      { key: "c", n: 1 },
    ]);
  });
});
