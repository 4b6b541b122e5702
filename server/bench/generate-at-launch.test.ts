/**
 * Generating criteria and scenarios at launch (issue 17 item 3): the batch is accepted into the
 * library as generated items, pinned to the bench (criteria in its rubric, cases after the explicit
 * ones within the budget), and the bench records the generation run.
 */
import { describe, expect, it } from "vitest";
import { content, makeTestDb } from "@/db/testing";
import { addCase, listPromptCases } from "@/db/queries/cases";
import { getBench, getManifest, listBenches } from "@/db/queries/benches";
import { createModelConfig } from "@/db/queries/models";
import { listGenerationRuns, listProposals } from "@/db/queries/proposals";
import type { BenchRequest } from "@/lib/bench/request";
import { criterionItem, scenarioItem, scriptedGenerator } from "@/lib/generate/test-support/scripted-generator";
import { launchFromRequest, prepareBench } from "./prepare";

const customer = [{ name: "customer", value: "Ada" }];

const request = (promptId: number, o: Partial<BenchRequest> = {}): BenchRequest => ({
  systemId: "acme",
  promptId,
  candidates: [{ kind: "recorded", recordedName: "gold" }],
  baseline: { kind: "none" },
  selection: { kind: "all" },
  budget: 3,
  repeats: 1,
  concurrency: 1,
  timeoutSeconds: 10,
  maxSteps: 1,
  judgeModelConfigId: null,
  launchKey: "generate-at-launch-1",
  generate: { modelConfigId: 1, criteria: 1, scenarios: 2 },
  ...o,
});

const answers = () =>
  scriptedGenerator({
    criteria: JSON.stringify({ criteria: [criterionItem("Ask for the order number first")] }),
    concepts: JSON.stringify({ concepts: [], personas: [{ name: "Solo", description: "one" }] }),
    scenarios: JSON.stringify({
      scenarios: [scenarioItem("My kettle never came", { variables: customer }), scenarioItem("Refund my broken toaster", { variables: customer })],
    }),
  });

async function withExplicitCases() {
  const t = await makeTestDb();
  // The saved generator configuration (a local server needs no key); the tests pass the mock model in its place.
  await createModelConfig(t.db, { name: "local", provider: "openai-compatible", modelId: "qwen", baseUrl: "http://127.0.0.1:9/v1" });
  for (const i of [1, 2])
    await addCase(t.db, { systemId: "acme", promptId: t.agentId, source: "custom", content: content(`Explicit question ${i}`, "x", { variables: customer }) });
  return t;
}

describe("launching a bench that generates criteria and scenarios", () => {
  it("pins the generated criterion in the rubric and the generated cases after the explicit ones, within the budget", async () => {
    const { db, agentId } = await withExplicitCases();
    const { model, calls } = answers();
    const { id, created } = await launchFromRequest(db, request(agentId), { generator: { model: { model, modelLabel: "mock:gen" } } });
    expect(created).toBe(true);
    expect(calls.map((c) => c.name)).toEqual(["criteria", "concepts", "scenarios"]);
    const cases = await listPromptCases(db, agentId);
    const generated = cases.filter((c) => c.source === "generated");
    expect(generated.map((c) => c.content.input)).toEqual(["My kettle never came", "Refund my broken toaster"]);
    // Explicit first, then the generated ones; the budget of 3 cuts the second generated case.
    const manifest = await getManifest(db, id);
    expect(manifest.map((m) => [m.source, m.caseId, m.included, m.reason])).toEqual([
      ["custom", cases[0].caseId, true, null],
      ["custom", cases[1].caseId, true, null],
      ["generated", generated[0].caseId, true, null],
      ["generated", generated[1].caseId, false, "over budget (3 cases)"],
    ]);
    const bench = (await getBench(db, id))!;
    expect(bench.rubric.map((c) => [c.rule, c.origin])).toEqual([["Ask for the order number first", "generated"]]);
    const run = (await listGenerationRuns(db, agentId))[0];
    expect(bench.settings.generated).toEqual({
      runId: run.id,
      model: "mock:gen",
      requested: { criteria: 1, scenarios: 2 },
      criterionIds: [bench.rubric[0].criterionId],
      caseIds: generated.map((c) => c.caseId),
      dropped: 0,
      refused: [],
    });
    // The library keeps the batch as accepted proposals with what each made.
    expect((await listProposals(db, agentId)).map((p) => [p.kind, p.status])).toEqual([
      ["criterion", "accepted"],
      ["scenario", "accepted"],
      ["scenario", "accepted"],
    ]);
  });

  it("a repeated launch key returns the first bench and generates nothing more", async () => {
    const { db, agentId } = await withExplicitCases();
    const { model, calls } = answers();
    const deps = { generator: { model: { model, modelLabel: "mock:gen" } } };
    const [a, b] = await Promise.all([launchFromRequest(db, request(agentId), deps), launchFromRequest(db, request(agentId), deps)]);
    const c = await launchFromRequest(db, request(agentId), deps);
    expect([a.id, b.id, c.id]).toEqual([a.id, a.id, a.id]);
    expect(c.created).toBe(false);
    expect(calls).toHaveLength(3);
    expect(await listGenerationRuns(db, agentId)).toHaveLength(1);
    expect(await listBenches(db, "acme")).toHaveLength(1);
  });

  it("an unusable generator answer stores nothing and launches no bench", async () => {
    const { db, agentId } = await withExplicitCases();
    const { model } = scriptedGenerator({ criteria: "Sorry, no JSON today.", concepts: "{}", scenarios: "{}" });
    const e = await launchFromRequest(db, request(agentId), { generator: { model: { model, modelLabel: "mock:gen" } } }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: "not_json", message: expect.stringContaining("Nothing was stored and no bench was launched.") });
    expect(await listBenches(db, "acme")).toEqual([]);
    expect(await listGenerationRuns(db, agentId)).toEqual([]);
    expect((await listPromptCases(db, agentId)).map((c) => c.source)).toEqual(["custom", "custom"]);
  });

  it("a generator model without its key is refused at plan time, naming the variable, before any call", async () => {
    const { db, agentId } = await withExplicitCases();
    const gpt = await createModelConfig(db, { name: "gpt", provider: "openai", modelId: "gpt-x" });
    const r = request(agentId, { generate: { modelConfigId: gpt, criteria: 1, scenarios: 1 } });
    const e = await prepareBench(db, r, { env: {} }).catch((x: unknown) => x);
    expect(e).toMatchObject({
      code: "not_allowed",
      fieldErrors: { "generate.modelConfigId": `Set OPENAI_API_KEY in the server's environment (the key of model configuration "gpt").` },
    });
    await expect(launchFromRequest(db, r, { env: {} })).rejects.toThrow(/OPENAI_API_KEY/);
    expect(await listGenerationRuns(db, agentId)).toEqual([]);
    // With the key, the plan says what generation adds.
    const plan = (await prepareBench(db, r, { env: { OPENAI_API_KEY: "sk-test" } })).plan;
    expect(plan.generation).toMatchObject({ model: "gpt", criteria: 1, scenarios: 1, scenariosIncluded: 1, calls: 3 });
  });

  it("a bench of generated cases only: the selection names the cases generation is about to make", async () => {
    const { db, agentId } = await withExplicitCases();
    const { model } = answers();
    const r = request(agentId, { selection: { kind: "source", source: "generated" }, budget: null, launchKey: "generated-only-1" });
    const plan = (await prepareBench(db, r)).plan;
    expect([plan.includedCount, plan.generation?.scenariosIncluded, plan.warnings.filter((w) => w.startsWith("No case is included"))]).toEqual([0, 2, []]);
    const { id } = await launchFromRequest(db, r, { generator: { model: { model, modelLabel: "mock:gen" } } });
    expect((await getManifest(db, id)).map((m) => [m.source, m.included])).toEqual([
      ["generated", true],
      ["generated", true],
    ]);
    // Without generation, the same selection is still a mistake.
    await expect(prepareBench(db, { ...request(agentId, { selection: { kind: "source", source: "dataset" } }), generate: null })).rejects.toThrow(
      /No case of prompt agent matches source dataset/,
    );
  });
});
