/**
 * Helpers for tests that drive the ai SDK with its `MockLanguageModelV3` (no HTTP): a model call's
 * usage and a text answer in the provider's V3 shapes, and a model that always answers one text.
 */
import { MockLanguageModelV3 } from "ai/test";

/** What a V3 language model's `doGenerate` returns. */
export type MockGenerateResult = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;

/** Token usage of one model call: `input` prompt tokens (none cached), `output` text tokens. */
export function mockUsage(input: number, output: number): MockGenerateResult["usage"] {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

/** A finished (`stop`) text answer with the given usage (default 10 in, 5 out). */
export function textResult(text: string, input = 10, output = 5): MockGenerateResult {
  return { content: [{ type: "text", text }], finishReason: { unified: "stop", raw: "stop" }, usage: mockUsage(input, output), warnings: [] };
}

/** A mock model that answers `text` to every call (usage 1 in, 1 out unless given). */
export function textModel(text: string, o: { modelId?: string; input?: number; output?: number } = {}): MockLanguageModelV3 {
  return new MockLanguageModelV3({ ...(o.modelId ? { modelId: o.modelId } : {}), doGenerate: async () => textResult(text, o.input ?? 1, o.output ?? 1) });
}
