import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../main";
import { captureIo } from "../testing";
import { withCliDatabase } from "../test-database";
import { openDatabase } from "@/db/client";
import { addCases, listPromptCases } from "@/db/queries/cases";
import { getBench, getManifest, listBenches } from "@/db/queries/benches";
import { createModelConfig } from "@/db/queries/models";
import { listGenerationRuns } from "@/db/queries/proposals";
import { createPrompt, createSystem } from "@/db/queries/systems";
import { emptyCaseContent } from "@/lib/library/case-content";
import { startScriptedModelServer, type ScriptedModelServer } from "@/e2e/fixtures/scripted-model-server";

// `bench run --generate-criteria N --generate-scenarios M [--generator CONFIG]` (issue 17 item 3).
let server: ScriptedModelServer;
let promptId: number;
const GEN = "You write test material for an LLM application";
const json = (v: unknown) => JSON.stringify(v);

beforeAll(async () => {
  server = await startScriptedModelServer({
    models: ["scripted-1"],
    script: [
      { name: "broken", when: { systemIncludes: GEN, userTextIncludes: "BROKEN" }, reply: { text: "no JSON today" } },
      {
        name: "criteria",
        when: { systemIncludes: GEN, userTextIncludes: 'as {"criteria": [...]}' },
        reply: {
          text: json({
            criteria: [{ rule: "Greets by name", passes: "Uses the name", fails: "No name", priority: "primary", check: "judge", evaluator: null }],
          }),
        },
      },
      {
        name: "concepts",
        when: { systemIncludes: GEN, userTextIncludes: 'as {"concepts": [...], "personas": [...]}' },
        reply: { text: json({ concepts: [{ name: "greeting", description: "hello" }], personas: [{ name: "Solo", description: "one" }] }) },
      },
      {
        name: "scenarios",
        when: { systemIncludes: GEN, userTextIncludes: "Persona: Solo" },
        reply: {
          text: json({ scenarios: [{ input: "good morning!", expected: "Greets back", variables: [], tags: [], covers: "greeting", edgeCase: false }] }),
        },
      },
      { name: "candidate", when: {}, reply: { text: "Hello" } },
    ],
  });
});
const { file } = withCliDatabase("benchwork-bench-generate-", async (db) => {
  await createSystem(db, { id: "shop", name: "Shop" });
  promptId = await createPrompt(db, { systemId: "shop", name: "greeter", systemPrompt: "Greet the customer." });
  const brokenId = await createPrompt(db, { systemId: "shop", name: "broken", systemPrompt: "BROKEN prompt." });
  await addCases(db, [
    {
      systemId: "shop",
      promptId,
      caseKey: "hi",
      source: "custom",
      content: { ...emptyCaseContent(), input: "hi", expected: "Hello", evaluators: [{ kind: "contains" }], recordedOutputs: { gold: "Hello" } },
    },
    { systemId: "shop", promptId: brokenId, caseKey: "broken-hi", source: "custom", content: { ...emptyCaseContent(), input: "hi", expected: "Hello" } },
  ]);
  await createModelConfig(db, { name: "scripted", provider: "openai-compatible", modelId: "scripted-1", baseUrl: server.url });
});
afterAll(async () => {
  await server.close();
});

const base = ["bench", "run", "--system", "shop", "--candidate", "model:scripted"];

describe("benchwork bench run --generate-criteria / --generate-scenarios", () => {
  it("generates with the candidate's model configuration and pins the generated criterion and case to the bench", async () => {
    const io = captureIo();
    const code = await main([...base, "--prompt", "greeter", "--generate-criteria", "1", "--generate-scenarios", "1"], io);
    expect(io.stderr.join("\n")).toBe("");
    expect(code).toBe(0);
    const db = openDatabase(file);
    try {
      const run = (await listGenerationRuns(db, promptId))[0];
      expect(io.stdout[0]).toBe(
        `generated 1 criterion and 1 scenario with openai-compatible:scripted-1 (run ${run.id}), accepted as generated items of the library`,
      );
      const bench = (await getBench(db, (await listBenches(db, "shop"))[0].id))!;
      expect(bench.rubric.map((c) => [c.rule, c.origin])).toEqual([["Greets by name", "generated"]]);
      const generated = (await listPromptCases(db, promptId)).find((c) => c.source === "generated")!;
      expect((await getManifest(db, bench.id)).map((m) => [m.caseKey, m.source, m.included])).toEqual([
        ["hi", "custom", true],
        [generated.caseKey, "generated", true],
      ]);
      expect(bench.settings.generated?.runId).toBe(run.id);
    } finally {
      db.$client.close();
    }
  });

  it("usage errors exit 2 with one line and store nothing: unknown generator, a count out of range, no model at all", async () => {
    for (const [args, message] of [
      [["--prompt", "greeter", "--generate-scenarios", "2", "--generator", "nope"], '--generator: no model configuration named "nope"'],
      [["--prompt", "greeter", "--generate-scenarios", "51"], "generate.scenarios: Scenarios to generate must be a whole number from 0 to 50."],
      [["--prompt", "greeter", "--generate-criteria", "x"], "generate.criteria: Criteria to generate must be a whole number from 0 to 50."],
    ] as const) {
      const io = captureIo();
      expect(await main([...base, ...args], io)).toBe(2);
      expect(io.stderr).toEqual([expect.stringContaining(message)]);
    }
    const io = captureIo();
    expect(await main(["bench", "run", "--system", "shop", "--prompt", "greeter", "--candidate", "recorded:gold", "--generate-criteria", "1"], io)).toBe(2);
    expect(io.stderr).toEqual([expect.stringContaining("--generate-criteria/--generate-scenarios need a generator model: give --generator CONFIG")]);
    const db = openDatabase(file);
    try {
      expect(await listBenches(db, "shop")).toHaveLength(1);
      expect(await listGenerationRuns(db, promptId)).toHaveLength(1);
    } finally {
      db.$client.close();
    }
  });

  it("an unusable generator answer exits 1 with one line; no bench, nothing generated", async () => {
    const io = captureIo();
    expect(await main([...base, "--prompt", "broken", "--generate-criteria", "1"], io)).toBe(1);
    expect(io.stderr).toEqual([expect.stringContaining("Nothing was stored and no bench was launched.")]);
    const db = openDatabase(file);
    try {
      expect(await listBenches(db, "shop")).toHaveLength(1);
    } finally {
      db.$client.close();
    }
  });
});
