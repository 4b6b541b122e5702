import { describe, expect, it } from "vitest";
import type { ModelConfig } from "@/lib/runtime/model-config";
import type { ParsedBenchmarkConfig } from "@/lib/suite/config";
import { chooseModels } from "./model";

const base: ParsedBenchmarkConfig = { protocolVersion: 1, title: "T", version: "1", license: "MIT", tools: [], evals: ["e.ts"] };
const saved: Record<string, ModelConfig> = {
  "gpt-4o-mini": { name: "gpt-4o-mini", provider: "openai", modelId: "gpt-4o-mini" },
  judge: { name: "judge", provider: "anthropic", modelId: "claude-x" },
};
const lookup = async (name: string) => saved[name] ?? null;
const fromConfig: ModelConfig = { name: "llama", provider: "openai-compatible", modelId: "llama", baseUrl: "http://127.0.0.1:11434/v1" };

describe("chooseModels", () => {
  it("prefers --model (database), then the command-line flags, then the config's model block", async () => {
    expect(await chooseModels({ model: "gpt-4o-mini" }, { ...base, model: fromConfig }, lookup)).toMatchObject({
      ok: true,
      model: saved["gpt-4o-mini"],
      source: 'model configuration "gpt-4o-mini"',
    });
    const flags = await chooseModels({ baseUrl: "http://127.0.0.1:4010/v1", modelId: "scripted-1" }, { ...base, model: fromConfig }, lookup);
    expect(flags).toMatchObject({
      ok: true,
      model: { provider: "openai-compatible", modelId: "scripted-1", baseUrl: "http://127.0.0.1:4010/v1" },
      source: "command-line flags",
    });
    expect(await chooseModels({}, { ...base, model: fromConfig }, lookup)).toMatchObject({ ok: true, model: fromConfig, judge: fromConfig });
  });

  it("judges with --judge-model, else the config's judgeModel, else the run model", async () => {
    expect(await chooseModels({ model: "gpt-4o-mini", judgeModel: "judge" }, base, lookup)).toMatchObject({ ok: true, judge: saved.judge });
    expect(await chooseModels({ model: "gpt-4o-mini" }, { ...base, judgeModel: fromConfig }, lookup)).toMatchObject({ ok: true, judge: fromConfig });
    expect(await chooseModels({ model: "gpt-4o-mini" }, base, lookup)).toMatchObject({ ok: true, judge: saved["gpt-4o-mini"] });
  });

  it("explains what is wrong", async () => {
    expect(await chooseModels({}, base, lookup)).toEqual({ ok: false, message: expect.stringMatching(/^no model: give --model NAME/) });
    expect(await chooseModels({ model: "nope" }, base, lookup)).toEqual({ ok: false, message: expect.stringMatching(/no model configuration named "nope"/) });
    expect(await chooseModels({ model: "gpt-4o-mini", modelId: "x" }, base, lookup)).toEqual({ ok: false, message: expect.stringMatching(/not both/) });
    expect(await chooseModels({ provider: "openai-compatible", modelId: "x" }, base, lookup)).toEqual({
      ok: false,
      message: expect.stringMatching(/baseUrl: Base URL is required/),
    });
    expect(await chooseModels({ model: "gpt-4o-mini", judgeModel: "nope" }, base, lookup)).toEqual({
      ok: false,
      message: '--judge-model: no model configuration named "nope"',
    });
  });
});
