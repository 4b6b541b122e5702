import { beforeEach, describe, expect, it } from "vitest";
import { makeTestDb, content } from "@/db/testing";
import type { Db } from "@/db/client";
import { activeRubric, addCriterion, listCriteria } from "@/db/queries/criteria";
import { addCase, getCase, listPromptCases } from "@/db/queries/cases";
import { listGenerationRuns, listProposals } from "@/db/queries/proposals";
import { GenerateError } from "@/lib/generate/structured";
import { criterionItem, scenarioItem, scriptedGenerator } from "@/lib/generate/test-support/scripted-generator";
import { generateForPrompt } from "./generate";
import { acceptProposal, customizeProposal, decideAll, dismissProposal } from "./review";

let db: Db;
let agentId: number;
let routerId: number;

beforeEach(async () => {
  ({ db, agentId, routerId } = await makeTestDb());
  await addCriterion(db, { systemId: "acme", promptId: agentId, fields: { rule: "Greet the customer by name", passes: "p", fails: "f", priority: "primary" } });
  await addCase(db, { systemId: "acme", promptId: agentId, source: "custom", content: content("Where is my parcel?", "Asks for the order number") });
});

const customer = [{ name: "customer", value: "Ada" }];
const answers = {
  criteria: JSON.stringify({
    criteria: [
      criterionItem("Ask for the order number before looking it up"),
      criterionItem("Never blame the courier", { priority: "secondary" }),
      criterionItem("greet the customer by name."),
    ],
  }),
  concepts: JSON.stringify({ concepts: [{ name: "orders", description: "order status" }], personas: [{ name: "Busy parent", description: "short" }] }),
  scenarios: JSON.stringify({
    scenarios: [
      scenarioItem("My kettle never came", { variables: customer }),
      scenarioItem("where is my parcel", { variables: customer }),
      scenarioItem("Cancel it", { variables: customer, edgeCase: true }),
    ],
  }),
};

async function generate(over: { criteria?: number; scenarios?: number } = {}, a: Record<string, string> = answers, runId = "run-a") {
  const { model, calls } = scriptedGenerator(a);
  let t = 1_000;
  const outcome = await generateForPrompt(
    db,
    { systemId: "acme", promptId: agentId, criteria: over.criteria ?? 3, scenarios: over.scenarios ?? 3 },
    { model, modelLabel: "mock:gen-mock", newRunId: () => runId, now: () => (t += 250) },
  );
  return { ...outcome, calls };
}

describe("generateForPrompt", () => {
  it("stores the run and its proposals, inactive, without repeating the library", async () => {
    const { run, proposals, calls } = await generate();
    // The library's criterion and case were shown to the model and their near-copies dropped.
    expect(calls[0].prompt).toContain("Greet the customer by name");
    expect(calls.at(-1)!.prompt).toContain("Where is my parcel?");
    expect(run).toMatchObject({
      id: "run-a",
      promptId: agentId,
      model: "mock:gen-mock",
      generatorRevision: "gen-1",
      requestedCriteria: 3,
      requestedScenarios: 3,
      durationMs: 250,
    });
    expect(run.dropped.map((d) => (d.reason === "duplicate" ? d.text : d.problem))).toEqual(["greet the customer by name.", "where is my parcel"]);
    expect(run.usage).toEqual({ inputTokens: 300, outputTokens: 150, calls: 3 });
    expect(proposals.map((p) => [p.kind, p.status, p.kind === "criterion" ? p.content.rule : p.content.input])).toEqual([
      ["criterion", "proposed", "Ask for the order number before looking it up"],
      ["criterion", "proposed", "Never blame the courier"],
      ["scenario", "proposed", "My kettle never came"],
      ["scenario", "proposed", "Cancel it"],
    ]);
    expect(proposals[0]).toMatchObject({ runId: "run-a", model: "mock:gen-mock", promptRevisionId: expect.any(Number) });
    // Nothing became active.
    expect((await activeRubric(db, agentId)).map((c) => c.rule)).toEqual(["Greet the customer by name"]);
    expect(await listPromptCases(db, agentId)).toHaveLength(1);
  });

  it("a second batch drops near-copies of the proposals still awaiting review", async () => {
    const first = await generate({ scenarios: 0 });
    await dismissProposal(db, first.proposals[1].id);
    const { run, proposals } = await generate({ scenarios: 0 }, { criteria: answers.criteria }, "run-b");
    // "Ask for the order number…" is still proposed; "Never blame the courier" was dismissed, so it may come back.
    expect(proposals.map((p) => (p.kind === "criterion" ? p.content.rule : ""))).toEqual(["Never blame the courier"]);
    expect(run.dropped).toContainEqual({
      reason: "duplicate",
      kind: "criterion",
      text: "Ask for the order number before looking it up",
      duplicateOf: "Ask for the order number before looking it up",
      of: "existing",
      similarity: 1,
    });
  });

  it("stores nothing when the model's answer is unusable", async () => {
    const e = await generate({}, { ...answers, scenarios: "I cannot help with that." }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(GenerateError);
    expect((e as Error).message).toMatch(/scenarios for persona "Busy parent": the model's answer is not JSON/);
    expect(await listProposals(db, agentId)).toEqual([]);
    expect(await listGenerationRuns(db, agentId)).toEqual([]);
  });

  it("refuses a prompt of another system before calling the model", async () => {
    const { model, calls } = scriptedGenerator(answers);
    await expect(generateForPrompt(db, { systemId: "other", promptId: routerId, criteria: 1, scenarios: 0 }, { model, modelLabel: "m" })).rejects.toThrow(
      'Prompt #2 does not exist in system "other".',
    );
    expect(calls).toEqual([]);
  });
});

describe("review", () => {
  it("accept makes an active generated criterion and a generated case; a second decision is refused", async () => {
    const { proposals } = await generate();
    const [c1, , s1] = proposals;
    const a = await acceptProposal(db, c1.id);
    const criterion = (await listCriteria(db, agentId)).find((c) => c.id === a.criterionId)!;
    expect(criterion).toMatchObject({ origin: "generated", status: "active", rule: "Ask for the order number before looking it up", priority: "primary" });
    const b = await acceptProposal(db, s1.id);
    const made = (await getCase(db, b.caseId!))!;
    expect(made).toMatchObject({
      source: "generated",
      status: "active",
      origin: { kind: "generated", runId: "run-a", proposalId: s1.id, model: "mock:gen-mock" },
    });
    expect(made.content).toMatchObject({
      input: "My kettle never came",
      expected: "helps with: My kettle never came",
      variables: customer,
      tags: ["generated"],
    });
    expect(made.content.notes).toBe("Generated by mock:gen-mock (run run-a) for concept “orders”, persona “Busy parent”.");
    await expect(acceptProposal(db, c1.id)).rejects.toThrow(`Proposal #${c1.id} was already accepted; nothing changed.`);
    expect((await listProposals(db, agentId, { status: "proposed" })).map((p) => p.id)).toEqual([proposals[1].id, proposals[3].id]);
  });

  it("customize makes a custom criterion or case with the user's edits; bad edits change nothing", async () => {
    const { proposals } = await generate();
    await expect(customizeProposal(db, proposals[1].id, { rule: "", passes: "p", fails: "f", priority: "primary" })).rejects.toMatchObject({
      code: "validation",
      fieldErrors: { rule: expect.any(String) },
    });
    const c = await customizeProposal(db, proposals[1].id, { rule: "Never blame the courier or the weather", passes: "p2", fails: "f2", priority: "primary" });
    expect((await listCriteria(db, agentId)).find((x) => x.id === c.criterionId)).toMatchObject({
      origin: "custom",
      rule: "Never blame the courier or the weather",
      passes: "p2",
    });
    const s = await customizeProposal(db, proposals[3].id, { input: "Cancel order 12", expected: "Cancels it" });
    expect((await getCase(db, s.caseId!))!).toMatchObject({
      source: "custom",
      content: { input: "Cancel order 12", expected: "Cancels it", tags: ["generated", "edge-case"] },
    });
    expect((await listProposals(db, agentId)).map((p) => p.status)).toEqual(["proposed", "customized", "proposed", "customized"]);
  });

  it("dismiss only records the decision", async () => {
    const { proposals } = await generate();
    expect(await dismissProposal(db, proposals[0].id)).toEqual({ proposalId: proposals[0].id, status: "dismissed" });
    expect((await activeRubric(db, agentId)).map((c) => c.rule)).toEqual(["Greet the customer by name"]);
    await expect(dismissProposal(db, 999)).rejects.toThrow("Proposal #999 does not exist.");
  });

  it("accept refuses a rule already in the rubric and leaves the proposal open; accept all goes on past it", async () => {
    const { proposals } = await generate();
    await addCriterion(db, { systemId: "acme", promptId: agentId, fields: { rule: "Never blame the courier", passes: "p", fails: "f", priority: "primary" } });
    await expect(acceptProposal(db, proposals[1].id)).rejects.toMatchObject({ code: "validation" });
    const all = await decideAll(db, agentId, "accept", "criterion");
    expect(all.decided.map((d) => d.proposalId)).toEqual([proposals[0].id]);
    expect(all.refused.map((r) => [r.proposal.id, r.message])).toEqual([[proposals[1].id, expect.stringContaining("already has this rule")]]);
    const rest = await decideAll(db, agentId, "dismiss");
    expect(rest.decided.map((d) => d.proposalId)).toEqual([proposals[1].id, proposals[2].id, proposals[3].id]);
    expect(await listProposals(db, agentId, { status: "proposed" })).toEqual([]);
  });
});
