import { beforeEach, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { caseRevisions, cases } from "../schema";
import { content } from "../testing";
import { describeStores } from "../test-support/stores";
import { addCases, removeCase } from "./cases";
import { promptDatasets, promptTags, recordedNames } from "./prompt-facets";
import { seedAcme } from "./test-support/acme";

describeStores("prompt facets", (store) => {
  let db: Db;
  let agentId: number;
  let routerId: number;
  beforeEach(async () => {
    db = store.db();
    ({ agentId, routerId } = await seedAcme(db));
  });

  const dataset = (name: string, row: number) => ({ kind: "dataset" as const, datasetName: name, row });

  it("count recorded columns, tags and datasets of the prompt's live cases, most common first", async () => {
    const calls = { toolName: "lookup", input: {} };
    const [a, , , d] = await addCases(db, [
      {
        systemId: "acme",
        promptId: agentId,
        source: "custom",
        content: content("a", "b", { tags: ["refund", "late"], recordedOutputs: { "gpt-old": "x", "model-6b": "y" } }),
      },
      {
        systemId: "acme",
        promptId: agentId,
        source: "dataset",
        origin: dataset("tickets", 1),
        content: content("c", "d", { tags: ["refund"], recordedOutputs: { "gpt-old": "z" }, recordedToolCalls: { "agent-v2": [calls] } }),
      },
      {
        systemId: "acme",
        promptId: agentId,
        source: "dataset",
        origin: dataset("tickets", 2),
        content: content("e", "f", { recordedToolCalls: { "gpt-old": [calls] } }),
      },
      { systemId: "acme", promptId: agentId, source: "dataset", origin: dataset("emails", 1), content: content("g", "h", { tags: ["gone"] }) },
      // Another prompt's cases never count.
      {
        systemId: "acme",
        promptId: routerId,
        source: "dataset",
        origin: dataset("other", 1),
        content: content("i", "j", { tags: ["refund"], recordedOutputs: { r: "1" } }),
      },
      // A retained copy of a live case is left out of the recorded columns (a plan would drop it).
      {
        systemId: "acme",
        promptId: agentId,
        source: "retained",
        origin: { kind: "bench", benchId: 1, fromCaseId: 1 },
        content: content("a", "b", { recordedOutputs: { "copy-only": "x" } }),
      },
    ]);
    expect(a.id).toBe(1);
    await db
      .update(caseRevisions)
      .set({ details: JSON.stringify({ ...content("g", "h", { tags: ["gone"] }), recordedOutputs: {}, recordedToolCalls: [] }) })
      .where(eq(caseRevisions.caseId, d.id));

    expect(await recordedNames(db, agentId)).toEqual([
      { name: "gpt-old", cases: 2 },
      { name: "agent-v2", cases: 1 },
      { name: "model-6b", cases: 1 },
    ]);
    expect(await promptTags(db, agentId)).toEqual([
      { tag: "refund", cases: 2 },
      { tag: "gone", cases: 1 },
      { tag: "late", cases: 1 },
    ]);
    expect(await promptDatasets(db, agentId)).toEqual([
      { dataset: "tickets", cases: 2 },
      { dataset: "emails", cases: 1 },
    ]);
  });

  it("count a retained copy once its original case is removed, and never a removed case", async () => {
    const [original] = await addCases(db, [
      { systemId: "acme", promptId: agentId, source: "custom", content: content("a", "b", { tags: ["t"], recordedOutputs: { m: "1" } }) },
    ]);
    const [copy] = await addCases(db, [
      {
        systemId: "acme",
        promptId: agentId,
        source: "retained",
        origin: { kind: "bench", benchId: 1, fromCaseId: original.id },
        content: content("a", "b", { recordedOutputs: { m: "1", copy: "2" } }),
      },
    ]);
    expect(await recordedNames(db, agentId)).toEqual([{ name: "m", cases: 1 }]);
    // Corrected by the user, so removing the original keeps it (removeCase).
    await db.update(cases).set({ userCorrected: true }).where(eq(cases.id, copy.id));
    await removeCase(db, original.id);
    expect(await recordedNames(db, agentId)).toEqual([
      { name: "copy", cases: 1 },
      { name: "m", cases: 1 },
    ]);
    expect(await promptTags(db, agentId)).toEqual([]);
  });
});
