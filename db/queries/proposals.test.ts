import { expect, it } from "vitest";
import { transaction } from "../transaction";
import { describeStores } from "../test-support/stores";
import { decideProposalTx, getGenerationRun, insertGenerationRun, listGenerationRuns, listProposals, openProposalTx, proposalsByIds } from "./proposals";
import { createPrompt, createSystem, getPrompt } from "./systems";
import type { CriterionProposal, GenerationResult, ScenarioProposal } from "@/lib/generate/types";

const criterion = (rule: string): CriterionProposal => ({
  rule,
  passes: "p",
  fails: "f",
  priority: "primary",
  check: { kind: "judge" },
  reason: "r",
});
const scenario = (input: string): ScenarioProposal => ({
  input,
  expected: "e",
  variables: [],
  tags: ["t"],
  concept: "c",
  persona: "p",
  edgeCase: false,
});

describeStores("generation runs and proposals", (store) => {
  async function seed() {
    const db = store.db();
    await createSystem(db, { id: "acme", name: "Acme" });
    const promptId = await createPrompt(db, { systemId: "acme", name: "agent", systemPrompt: "Hi." });
    const revisionId = (await getPrompt(db, promptId))!.revision!.id;
    const result = (runId: string, criteria: CriterionProposal[], scenarios: ScenarioProposal[]): GenerationResult => ({
      runId,
      model: "openai:gpt-4o-mini",
      generatorRevision: "g1",
      promptRevisionId: revisionId,
      criteria,
      scenarios,
      concepts: [{ name: "refunds", description: "d" }],
      personas: [],
      dropped: [{ reason: "invalid", step: "criteria", item: 3, problem: "no rule" }],
      diversity: { criteria: 0.5, scenarios: null },
      usage: { inputTokens: 10, outputTokens: 20, calls: 2 },
    });
    return { db, promptId, result };
  }

  it("stores a run with its proposals, criteria first in batch order, and reads them back decoded", async () => {
    const { db, promptId, result } = await seed();
    const run = { systemId: "acme", promptId, requestedCriteria: 3, requestedScenarios: 2, durationMs: 1500 };
    const ids = await insertGenerationRun(db, { ...run, result: result("r1", [criterion("A"), criterion("B")], [scenario("x"), scenario("y")]), now: 1000 });
    await insertGenerationRun(db, { ...run, result: result("r2", [], [scenario("z")]), now: 2000 });
    const byId = await proposalsByIds(db, ids);
    expect(byId.map((p) => [p.kind, p.position, p.kind === "criterion" ? p.content.rule : p.content.input])).toEqual([
      ["criterion", 0, "A"],
      ["criterion", 1, "B"],
      ["scenario", 0, "x"],
      ["scenario", 1, "y"],
    ]);
    expect((await listProposals(db, promptId)).map((p) => [p.runId, p.kind, p.position])).toEqual([
      ["r2", "scenario", 0],
      ["r1", "criterion", 0],
      ["r1", "criterion", 1],
      ["r1", "scenario", 0],
      ["r1", "scenario", 1],
    ]);
    expect(await getGenerationRun(db, "r1")).toMatchObject({
      id: "r1",
      requestedCriteria: 3,
      durationMs: 1500,
      createdAt: 1000,
      dropped: [{ reason: "invalid", step: "criteria", item: 3, problem: "no rule" }],
      diversity: { criteria: 0.5, scenarios: null },
      usage: { inputTokens: 10, outputTokens: 20, calls: 2 },
      concepts: { concepts: [{ name: "refunds", description: "d" }], personas: [] },
    });
    expect((await listGenerationRuns(db, promptId, 1)).map((r) => r.id)).toEqual(["r2"]);
    expect(await getGenerationRun(db, "nope")).toBeNull();
  });

  it("decides a proposal once inside a transaction; a second decision is refused", async () => {
    const { db, promptId, result } = await seed();
    const [id] = await insertGenerationRun(db, {
      systemId: "acme",
      promptId,
      result: result("r1", [criterion("A")], []),
      requestedCriteria: 1,
      requestedScenarios: 0,
      durationMs: 1,
      now: 1000,
    });
    await transaction(db, async (tx) => {
      expect((await openProposalTx(tx, id)).status).toBe("proposed");
      await decideProposalTx(tx, id, "dismissed");
    });
    expect(await listProposals(db, promptId, { status: "dismissed" })).toEqual([expect.objectContaining({ id, status: "dismissed" })]);
    await expect(transaction(db, (tx) => openProposalTx(tx, id))).rejects.toMatchObject({ code: "conflict" });
    await expect(transaction(db, (tx) => openProposalTx(tx, 999))).rejects.toMatchObject({ code: "not_found" });
  });
});
