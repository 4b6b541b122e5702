import { describe, expect, it } from "vitest";
import { parseBenchmarkConfig } from "./config";

const base = { protocolVersion: 1, title: "Support", version: "1.0.0", license: "Apache-2.0", tools: ["tools/a.ts"], evals: ["evals/a.ts"] };

describe("parseBenchmarkConfig", () => {
  it("accepts the documented shape and fills the tools list", () => {
    const r = parseBenchmarkConfig(base);
    expect(r).toEqual({ ok: true, config: base });
    const noTools = parseBenchmarkConfig({ ...base, tools: undefined });
    expect(noTools.ok && noTools.config.tools).toEqual([]);
  });

  it("reads model blocks as model configurations (name defaults to the model id)", () => {
    const r = parseBenchmarkConfig({ ...base, model: { provider: "openai-compatible", modelId: "llama3.1", baseUrl: "http://127.0.0.1:11434/v1" } });
    expect(r.ok && r.config.model).toEqual({ name: "llama3.1", provider: "openai-compatible", modelId: "llama3.1", baseUrl: "http://127.0.0.1:11434/v1" });
  });

  it("lists every problem, each naming its field", () => {
    const r = parseBenchmarkConfig({ protocolVersion: 2, title: "", evals: [], extra: true, model: { provider: "openai-compatible", modelId: "m" } });
    expect(r.ok).toBe(false);
    const problems = r.ok ? [] : r.problems;
    expect(problems).toEqual([
      'unknown field "extra"; allowed: protocolVersion, title, version, license, description, tools, evals, model, judgeModel',
      "protocolVersion 2 is not supported: this Benchwork reads protocol 1",
      "title is required (non-empty text)",
      "version is required (non-empty text)",
      "license is required (non-empty text)",
      "evals is empty: list at least one eval module",
      "model.baseUrl: Base URL is required for an OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1",
    ]);
    expect(parseBenchmarkConfig(null)).toMatchObject({ ok: false });
    expect(parseBenchmarkConfig({ ...base, evals: ["a.ts", "a.ts"] })).toEqual({ ok: false, problems: ['evals lists "a.ts" twice'] });
  });
});
