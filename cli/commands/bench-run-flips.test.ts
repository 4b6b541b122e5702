/**
 * `bench run --json-output` lists per candidate the cases that flipped against the baseline and
 * the checks the baseline is flaky on (issue #16 §5), against the scripted model server: the
 * baseline revision answers case hi-1 right only the first time it is asked (of 3 repeats), so
 * hi-1 is flaky on the baseline; it answers hi-2 right and the candidate wrong (a regression), and
 * hi-3 wrong and the candidate right (a fix).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { main } from "../main";
import { captureIo } from "../testing";
import { withCliDatabase } from "../test-database";
import { addCases } from "@/db/queries/cases";
import { createModelConfig } from "@/db/queries/models";
import { savePromptRevision } from "@/db/queries/prompt-revisions";
import { createPrompt, createSystem, getPrompt } from "@/db/queries/systems";
import { emptyCaseContent } from "@/lib/library/case-content";
import { startScriptedModelServer, type ScriptedModelServer } from "@/e2e/fixtures/scripted-model-server";

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer({
    models: ["scripted-1"],
    script: [
      { when: { systemIncludes: "Candidate.", userText: "hi 2" }, reply: { text: "Hello" } },
      { when: { systemIncludes: "Candidate." }, reply: { text: "Bonjour" } },
      { when: { userText: "hi 1" }, reply: { text: "Bonjour" }, times: 1 },
      { when: { userText: "hi 2" }, reply: { text: "Bonjour" } },
      { when: {}, reply: { text: "Hello" } },
    ],
  });
});
afterAll(async () => {
  await server.close();
});
const { dir } = withCliDatabase("benchwork-bench-flips-", async (db) => {
  await createSystem(db, { id: "shop", name: "Shop" });
  const promptId = await createPrompt(db, { systemId: "shop", name: "greeter", systemPrompt: "Greet the customer." });
  await addCases(
    db,
    [1, 2, 3, 4].map((i) => ({
      systemId: "shop",
      promptId,
      caseKey: `hi-${i}`,
      source: "custom" as const,
      content: { ...emptyCaseContent(), input: `hi ${i}`, expected: "Bonjour", evaluators: [{ kind: "contains" as const }] },
    })),
  );
  await savePromptRevision(db, promptId, (await getPrompt(db, promptId))!.revision!.id, {
    systemPrompt: "Greet the customer. Candidate.",
    modelSettings: {},
    tools: [],
    message: "candidate",
  });
  await createModelConfig(db, { name: "scripted", provider: "openai-compatible", modelId: "scripted-1", baseUrl: server.url });
});

describe("bench run flips and flaky checks", () => {
  it("lists regressed, fixed and flaky-on-baseline cases per candidate, and the baseline's flaky checks", async () => {
    const out = path.join(dir, "flips.json");
    const io = captureIo();
    await main(
      [
        "bench",
        "run",
        "--system",
        "shop",
        "--prompt",
        "greeter",
        "--candidate",
        "model:scripted@previous",
        "--candidate",
        "model:scripted@current",
        "--repeats",
        "3",
        "--json-output",
        out,
      ],
      io,
    );
    const r = JSON.parse(readFileSync(out, "utf8"));
    const [base, cand] = r.candidates;
    expect(base.flips).toBeNull();
    expect(base.flakyOnBaseline).toBeNull();
    expect(cand.flips.paired).toBe(4);
    expect(cand.flips.regressed).toEqual([{ caseKey: "hi-2", candidate: { passed: 0, scored: 3 }, baseline: { passed: 3, scored: 3 } }]);
    expect(cand.flips.fixed.map((x: { caseKey: string }) => x.caseKey)).toEqual(["hi-3", "hi-4"]);
    expect(cand.flips.flakyOnBaseline).toEqual([{ caseKey: "hi-1", candidate: { passed: 3, scored: 3 }, baseline: { passed: 1, scored: 3 } }]);
    expect(cand.flakyOnBaseline).toHaveLength(1);
    expect(cand.flakyOnBaseline[0]).toMatchObject({ caseKey: "hi-1", baseline: { passed: 1, scored: 3 } });
  }, 60_000);
});
