import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openMemoryDatabase } from "@/db/client";
import { addCriterion } from "@/db/queries/criteria";
import { createModelConfig } from "@/db/queries/models";
import { startScriptedModelServer, type ScriptedModelServer } from "@/e2e/fixtures/scripted-model-server";
import { recordedRequest, recordedSuite, runBench } from "./test-support/recorded-bench";

let server: ScriptedModelServer;
const warnings: { feature?: string; message?: string }[] = [];
beforeAll(async () => {
  server = await startScriptedModelServer({
    models: ["judge-1"],
    script: [{ name: "judge", when: { systemIncludes: "You are an impartial evaluator" }, reply: { text: '{"reason": "Polite.", "verdict": "pass"}' } }],
  });
  // The ai SDK's warning log, caught instead of printed.
  (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = (o: { warnings: { feature?: string; message?: string }[] }) =>
    void warnings.push(...o.warnings);
});
afterAll(async () => {
  delete (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS;
  await server.close();
});
afterEach(() => server.requests.reset());

describe("an OpenAI-compatible judge", () => {
  it("is asked for JSON the way the provider supports it (JSON mode): no 'responseFormat is not supported' warning per call", async () => {
    const db = openMemoryDatabase();
    const promptId = await recordedSuite(
      db,
      ["q1", "q2", "q3", "q4"].map((key) => ({ key, expected: "ok", answers: { col: "ok" } })),
    );
    for (const rule of ["Answers politely", "Stays on topic"])
      await addCriterion(db, { systemId: "rec", promptId, fields: { rule, passes: "yes", fails: "no", priority: "primary" } });
    const judge = await createModelConfig(db, { name: "judge", provider: "openai-compatible", modelId: "judge-1", baseUrl: server.url });
    const bench = await runBench(db, recordedRequest(promptId, ["col"], { judgeModelConfigId: judge }));
    expect(bench.summary!.candidates[0].stats.checks).toMatchObject({ passed: 12, error: 0 });
    // It logged one warning per judge call (8 here; 29 for a 4-case bench of the demo).
    expect(warnings.filter((w) => w.feature === "responseFormat")).toEqual([]);
    const bodies = server.requests.log.map((r) => r.body as { response_format?: unknown });
    expect(bodies).toHaveLength(8);
    expect(bodies.every((b) => JSON.stringify(b.response_format) === '{"type":"json_object"}')).toBe(true);
  });
});
