/**
 * `bench run --rerun-errors` against the scripted server (issue #16 §3): an errored trial that the
 * rerun replaced is attempt history, not an error left. The progress line, the "Trials that ended
 * as errors" lines and the JSON's `errors` leave it out, as the page's "0 errors (1 rerun)" and its
 * "Errors by kind" panel do (the tester's bench #12 still printed "2 errors" and listed both after
 * both reruns passed); the JSON's `reruns` keeps the attempt.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { main } from "../main";
import { captureIo } from "../testing";
import { withCliDatabase } from "../test-database";
import { addCases } from "@/db/queries/cases";
import { createModelConfig } from "@/db/queries/models";
import { createPrompt, createSystem } from "@/db/queries/systems";
import { emptyCaseContent } from "@/lib/library/case-content";
import { startScriptedModelServer, type ScriptedModelServer } from "@/e2e/fixtures/scripted-model-server";

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer({
    models: ["scripted-1"],
    script: [
      // The first calls of case "rate" are refused (429, more than the call's retries), so its trial errors; its rerun is answered.
      { name: "429", when: { userText: "rate" }, fault: { status: 429, message: "Rate limit reached for requests", retryAfterMs: 10 }, times: 4 },
      { name: "answer", when: {}, reply: { text: "Bonjour" } },
    ],
  });
});
afterAll(async () => {
  await server.close();
});
const { dir } = withCliDatabase("benchwork-bench-rerun-errors-", async (db) => {
  await createSystem(db, { id: "shop", name: "Shop" });
  const promptId = await createPrompt(db, { systemId: "shop", name: "greeter", systemPrompt: "Greet the customer." });
  await addCases(
    db,
    ["hello", "rate"].map((input) => ({
      systemId: "shop",
      promptId,
      caseKey: input,
      source: "custom" as const,
      content: { ...emptyCaseContent(), input, expected: "Bonjour", evaluators: [{ kind: "contains" as const }] },
    })),
  );
  await createModelConfig(db, { name: "scripted", provider: "openai-compatible", modelId: "scripted-1", baseUrl: server.url });
});

describe("bench run --rerun-errors", () => {
  it("leaves the errored trial its rerun replaced out of the progress line, the errors lines and the JSON's errors", async () => {
    const io = captureIo();
    const out = path.join(dir, "rerun.json");
    const code = await main(
      ["bench", "run", "--system", "shop", "--prompt", "greeter", "--candidate", "model:scripted", "--rerun-errors", "--json-output", out],
      io,
    );
    const text = io.stdout.join("\n");
    // The first run ended with the errored trial; the rerun replaced it.
    expect(text).toContain("  2/2 trials · 1 done · 1 error · 0 skipped");
    expect(text).toMatch(/^rerunning 1 errored trial: 1 trial \(/m);
    const after = io.stdout.filter((l) => l.startsWith("  3/3 trials"));
    expect(after.at(-1)).toBe("  3/3 trials · 2 done · 0 errors (1 rerun) · 0 skipped");
    expect(text).not.toContain("Trials that ended as errors");
    const r = JSON.parse(readFileSync(out, "utf8"));
    expect(r.errors).toEqual([]);
    expect(r.reruns.map((x: { kind: string; trials: number }) => [x.kind, x.trials])).toEqual([["errors", 1]]);
    expect(r.candidates[0].trials).toMatchObject({ total: 2, done: 2, error: 0 });
    expect(code).toBe(0);
  });
});
