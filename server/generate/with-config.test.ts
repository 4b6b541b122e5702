import { describe, expect, it, vi } from "vitest";
import { makeTestDb } from "@/db/testing";
import { createModelConfig } from "@/db/queries/models";
import { listGenerationRuns } from "@/db/queries/proposals";
import { generateWithModelConfig, generatorModelChoices } from "./with-config";

describe("generation with a saved model configuration", () => {
  it("says which setting is missing, and refuses to generate without the key, storing nothing", async () => {
    const { db, agentId } = await makeTestDb();
    const id = await createModelConfig(db, { name: "gpt", provider: "openai", modelId: "gpt-x" });
    await createModelConfig(db, { name: "local", provider: "openai-compatible", modelId: "qwen", baseUrl: "http://127.0.0.1:9/v1" });
    expect(await generatorModelChoices(db, {})).toEqual([
      { id, name: "gpt", label: "openai:gpt-x", missing: `Set OPENAI_API_KEY in the server's environment (the key of model configuration "gpt").` },
      { id: expect.any(Number), name: "local", label: "openai-compatible:qwen", missing: null },
    ]);
    const e = await generateWithModelConfig(db, { systemId: "acme", promptId: agentId, criteria: 1, scenarios: 0, modelConfigId: id }, { env: {} }).catch(
      (x: unknown) => x,
    );
    expect(e).toMatchObject({ code: "not_allowed", message: expect.stringContaining("OPENAI_API_KEY") });
    expect(await listGenerationRuns(db, agentId)).toEqual([]);
  });

  it("names an unknown configuration", async () => {
    const { db, agentId } = await makeTestDb();
    await expect(
      generateWithModelConfig(db, { systemId: "acme", promptId: agentId, criteria: 1, scenarios: 0, modelConfigId: 42 }, { env: {} }),
    ).rejects.toThrow("Model configuration #42 does not exist; choose another generator model.");
  });
});

describe("cancelling a generation", () => {
  it("aborts the model's HTTP call and stores nothing", async () => {
    const { startScriptedModelServer } = await import("@/e2e/fixtures/scripted-model-server");
    // The model never answers within the test: only the abort can end the call.
    const server = await startScriptedModelServer({ script: [{ name: "slow", delayMs: 60_000, reply: { text: "{}" } }] });
    try {
      const { db, agentId } = await makeTestDb();
      const id = await createModelConfig(db, { name: "local", provider: "openai-compatible", modelId: "slow-1", baseUrl: server.url });
      const ac = new AbortController();
      const pending = generateWithModelConfig(
        db,
        { systemId: "acme", promptId: agentId, criteria: 2, scenarios: 0, modelConfigId: id },
        { env: {}, abortSignal: ac.signal },
      ).catch((x: unknown) => x);
      await vi.waitFor(() => expect(server.requests.count).toBe(1), { timeout: 10_000 });
      ac.abort();
      expect(await pending).toMatchObject({ code: "cancelled", message: "criteria: cancelled. Nothing was stored." });
      expect(await listGenerationRuns(db, agentId)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
