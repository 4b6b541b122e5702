import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { main } from "../main";
import { captureIo } from "../testing";
import { withCliDatabase } from "../test-database";
import { openDatabase } from "@/db/client";
import { addCases } from "@/db/queries/cases";
import { listBenches } from "@/db/queries/benches";
import { createModelConfig } from "@/db/queries/models";
import { savePromptRevision } from "@/db/queries/prompt-revisions";
import { createPrompt, createSystem, getPrompt } from "@/db/queries/systems";
import { emptyCaseContent } from "@/lib/library/case-content";
import { startScriptedModelServer, type ScriptedModelServer } from "@/e2e/fixtures/scripted-model-server";

// `bench run --candidate model:CONFIG@previous|@current|@rN` and candidates named by revision and message.
let server: ScriptedModelServer;

beforeAll(async () => {
  server = await startScriptedModelServer({
    models: ["scripted-1"],
    script: [
      { name: "r2", when: { systemIncludes: "Answer in French." }, reply: { text: "Bonjour" } },
      { name: "r1", when: {}, reply: { text: "Hello" } },
    ],
  });
});
const { dir, file } = withCliDatabase("benchwork-bench-revisions-", async (db) => {
  await createSystem(db, { id: "shop", name: "Shop" });
  const promptId = await createPrompt(db, { systemId: "shop", name: "greeter", systemPrompt: "Greet the customer." });
  await addCases(db, [
    {
      systemId: "shop",
      promptId,
      caseKey: "hi",
      source: "custom",
      content: { ...emptyCaseContent(), input: "hi", expected: "Bonjour", evaluators: [{ kind: "contains" }] },
    },
  ]);
  await savePromptRevision(db, promptId, (await getPrompt(db, promptId))!.revision!.id, {
    systemPrompt: "Greet the customer. Answer in French.",
    modelSettings: {},
    tools: [],
    message: "answer in French",
  });
  await createModelConfig(db, { name: "scripted", provider: "openai-compatible", modelId: "scripted-1", baseUrl: server.url });
});
afterAll(async () => {
  await server.close();
});

const base = ["bench", "run", "--system", "shop", "--prompt", "greeter"];

describe("benchwork bench run with prompt revisions", () => {
  it("benches @previous (baseline) against @current and names each by revision and message", async () => {
    const io = captureIo();
    const out = path.join(dir, "change.json");
    const code = await main([...base, "--candidate", "model:scripted@previous", "--candidate", "model:scripted@current", "--json-output", out], io);
    expect(io.stderr.join("\n")).toBe("");
    expect(code).toBe(0);
    const r = JSON.parse(readFileSync(out, "utf8"));
    expect(r.candidates.map((c: { label: string; baseline: boolean; passed: number; failed: number }) => [c.label, c.baseline, c.passed, c.failed])).toEqual([
      ["scripted · greeter r1", true, 0, 1],
      ["scripted · greeter r2 · answer in French", false, 1, 0],
    ]);
    expect(r.recommendation.recommended).toBe("scripted · greeter r2 · answer in French");
  }, 60_000);

  it("still takes @rN and @N, and a revision that does not exist is a usage error listing the ones that do", async () => {
    const io = captureIo();
    expect(await main([...base, "--candidate", "model:scripted@r9"], io)).toBe(2);
    expect(io.stderr.join("\n")).toMatch(/--candidate "model:scripted@r9": prompt greeter has no revision r9 \(it has r1, r2; or write current or previous\)/);
    const ok = captureIo();
    expect(await main([...base, "--candidate", "model:scripted@1", "--candidate", "model:scripted@r2"], ok)).toBe(0);
  }, 60_000);
});

describe("the same candidate twice", () => {
  it("model:CONFIG and model:CONFIG@current are one candidate: a usage error, nothing stored", async () => {
    const db = openDatabase(file);
    const before = (await listBenches(db, "shop")).length;
    const io = captureIo();
    expect(await main([...base, "--candidate", "model:scripted", "--candidate", "model:scripted@current"], io)).toBe(2);
    expect(io.stderr.join("\n")).toMatch(/Candidate 2 is the same as candidate 1 \(scripted · greeter r2 · answer in French\)/);
    expect((await listBenches(db, "shop")).length).toBe(before);
    db.$client.close();
  });
});
