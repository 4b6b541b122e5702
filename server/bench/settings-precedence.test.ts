import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openMemoryDatabase, type Db } from "@/db/client";
import { createModelConfig } from "@/db/queries/models";
import { createPrompt, createSystem } from "@/db/queries/systems";
import { startScriptedModelServer, type ScriptedModelServer } from "@/e2e/fixtures/scripted-model-server";
import { launchFromRequest } from "./prepare";
import { addContainsCases, modelBenchRequest } from "./test-support/model-bench";
import { waitEnded } from "./test-support/recorded-bench";
import { startBenchWorker } from "../worker";

// README "Prompts": the prompt revision's model settings win over the model configuration's defaults.
let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer({ models: ["scripted-1"], script: [{ name: "any", when: {}, reply: { text: "ok" } }] });
});
afterAll(async () => server.close());

async function benchOnce(db: Db, prompt: { name: string; modelSettings: Record<string, unknown> }) {
  const promptId = await createPrompt(db, { systemId: "shop", name: prompt.name, systemPrompt: "Be brief.", modelSettings: prompt.modelSettings });
  await addContainsCases(db, { systemId: "shop", promptId, cases: [{ key: `${prompt.name}-1`, input: `hello from ${prompt.name}`, expected: "ok" }] });
  const model = await createModelConfig(db, {
    name: `defaults ${prompt.name}`,
    provider: "openai-compatible",
    modelId: "scripted-1",
    baseUrl: server.url,
    temperature: 1,
    maxOutputTokens: 50,
  });
  const { id } = await launchFromRequest(
    db,
    modelBenchRequest({ systemId: "shop", promptId, modelConfigIds: [model], concurrency: 1, timeoutSeconds: 30, launchKey: `k-${prompt.name}` }),
  );
  const worker = startBenchWorker(db, { env: {}, pollMs: 20 });
  const bench = await waitEnded(db, id);
  await worker.stop(1000);
  expect(bench.status).toBe("finished");
  const sent = server.requests.log.filter((r) => r.method === "POST" && JSON.stringify(r.body).includes(`hello from ${prompt.name}`));
  expect(sent).toHaveLength(1);
  return sent[0].body as Record<string, unknown>;
}

describe("settings precedence: prompt revision over model configuration", () => {
  it("sends the prompt revision's temperature, max output tokens, top P and stop sequences, not the configuration's defaults", async () => {
    const db = openMemoryDatabase();
    await createSystem(db, { id: "shop", name: "Shop" });
    const body = await benchOnce(db, { name: "tuned", modelSettings: { temperature: 0.2, maxOutputTokens: 400, topP: 0.9, stopSequences: ["END"] } });
    expect(body.temperature).toBe(0.2);
    expect(body.max_tokens).toBe(400);
    expect(body.top_p).toBe(0.9);
    expect(body.stop).toEqual(["END"]);
  });

  it("falls back to the model configuration's defaults for settings the revision does not give", async () => {
    const db = openMemoryDatabase();
    await createSystem(db, { id: "shop", name: "Shop" });
    const body = await benchOnce(db, { name: "plain", modelSettings: {} });
    expect(body.temperature).toBe(1);
    expect(body.max_tokens).toBe(50);
    expect(body.top_p).toBeUndefined();
    expect(body.stop).toBeUndefined();
  });
});
