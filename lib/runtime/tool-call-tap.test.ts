import { describe, expect, it } from "vitest";
import { generateText, jsonSchema, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { mockUsage, textResult } from "./test-support/mock-model";
import { argumentsAsSent, tapToolCalls, type RawToolCall } from "./tool-call-tap";

describe("argumentsAsSent", () => {
  it("decodes the text as JSON, reads an empty text as no arguments and keeps text that is not JSON", () => {
    expect(argumentsAsSent('{"topic":"returns","lang":"en"}')).toEqual({ topic: "returns", lang: "en" });
    expect(argumentsAsSent("  ")).toEqual({});
    expect(argumentsAsSent("{not json")).toBe("{not json");
    expect(argumentsAsSent('"x"')).toBe("x");
  });
});

describe("tapToolCalls", () => {
  it("reports a response's tool calls before the tools run, and gives each text once", async () => {
    const order: string[] = [];
    const seen: RawToolCall[][] = [];
    const model = new MockLanguageModelV3({
      doGenerate: [
        {
          content: [{ type: "tool-call", toolCallId: "c1", toolName: "t", input: '{"a": 1}' }],
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage: mockUsage(1, 1),
          warnings: [],
        },
        textResult("done"),
      ],
    });
    const tap = tapToolCalls(model, (calls) => {
      order.push("model answered");
      seen.push(calls);
    });
    const t = tool({ inputSchema: jsonSchema<{ a: number }>({ type: "object" }), execute: async () => (order.push("tool ran"), "ok") });
    await generateText({ model: tap.model, prompt: "go", tools: { t }, stopWhen: () => false, maxRetries: 0 });
    expect(order).toEqual(["model answered", "tool ran"]);
    expect(seen).toEqual([[{ toolCallId: "c1", toolName: "t", rawInput: '{"a": 1}' }]]);
    expect(tap.take("c1")).toBe('{"a": 1}');
    expect(tap.take("c1")).toBeUndefined();
  });

  it("leaves a model id string as it is (nothing to wrap)", () => {
    const tap = tapToolCalls("openai/gpt-4o-mini");
    expect(tap.model).toBe("openai/gpt-4o-mini");
    expect(tap.take("c1")).toBeUndefined();
  });
});
