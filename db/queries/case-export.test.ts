import { beforeEach, expect, it } from "vitest";
import type { Db } from "../client";
import { content } from "../testing";
import { describeStores } from "../test-support/stores";
import { listCasesForExport } from "./case-export";
import { addCases, removeCase } from "./cases";
import { seedAcme } from "./test-support/acme";

describeStores("library export", (store) => {
  let db: Db;
  let agentId: number;
  let routerId: number;
  beforeEach(async () => {
    db = store.db();
    ({ agentId, routerId } = await seedAcme(db));
  });

  it("lists live cases with full content, by prompt name then creation order, for one prompt or all", async () => {
    const [, gone] = await addCases(db, [
      { systemId: "acme", promptId: routerId, caseKey: "r-1", source: "custom", content: content("route me", "billing") },
      { systemId: "acme", promptId: agentId, caseKey: "a-gone", source: "custom", content: content("secret", "x") },
      {
        systemId: "acme",
        promptId: agentId,
        caseKey: "a-1",
        source: "dataset",
        content: content("Where is my order?", "Ask for the number", { tags: ["order"] }),
      },
      { systemId: "acme", promptId: agentId, caseKey: "a-2", source: "custom", status: "paused", content: content("Refund?", "Explain the window") },
    ]);
    await removeCase(db, gone.id);
    const all = await listCasesForExport(db, "acme");
    expect(all.map((c) => [c.promptName, c.caseKey, c.source, c.status])).toEqual([
      ["agent", "a-1", "dataset", "active"],
      ["agent", "a-2", "custom", "paused"],
      ["router", "r-1", "custom", "active"],
    ]);
    expect(all[0].content).toMatchObject({ input: "Where is my order?", expected: "Ask for the number", tags: ["order"] });
    expect((await listCasesForExport(db, "acme", routerId)).map((c) => c.caseKey)).toEqual(["r-1"]);
    expect(await listCasesForExport(db, "elsewhere")).toEqual([]);
  });
});
