import { describe, expect, it } from "vitest";
import { APICallError, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { mockUsage as usage, textResult } from "@/lib/runtime/test-support/mock-model";
import { caseToolSet, createAgent, type RunEvent } from "./agent";
import { releaseCase as baseCase } from "./testing";
import type { ReleaseCase } from "./types";

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;
type CallOptions = Parameters<MockLanguageModelV3["doGenerate"]>[0];

const text = (t: string): GenerateResult => textResult(t);
const call = (name: string, input: unknown): GenerateResult => ({
  content: [{ type: "tool-call", toolCallId: "call_1", toolName: name, input: JSON.stringify(input) }],
  finishReason: { unified: "tool-calls", raw: "tool_calls" },
  usage: usage(20, 8),
  warnings: [],
});

const executed: unknown[] = [];
const tools = {
  lookup_policy: tool({
    description: "Look up a policy.",
    inputSchema: z.object({ topic: z.string() }),
    execute: async ({ topic }) => {
      executed.push(topic);
      return { topic, policy: "30 days" };
    },
  }),
  get_order: tool({
    description: "Look up an order.",
    inputSchema: z.object({ orderId: z.string() }),
    execute: async (): Promise<{ status: string }> => {
      throw new Error("orders database is down");
    },
  }),
};

function releaseCase(more: Partial<ReleaseCase> = {}): ReleaseCase {
  return baseCase({
    prompt: "Find the return policy.",
    systemPrompt: "You are a support agent.",
    tools: ["lookup_policy"],
    source: { module: "m.ts", file: "m.ts", index: 0 },
    ...more,
  });
}

describe("createAgent", () => {
  it("exposes only the case's tools, forwards calls to execute, returns results to the model and records the trace", async () => {
    const seen: CallOptions[] = [];
    const replies = [call("lookup_policy", { topic: "returns" }), text("Within 30 days.")];
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        seen.push(options);
        return replies.shift()!;
      },
    });
    const events: RunEvent[] = [];
    const record = await createAgent({ model, tools })(releaseCase(), { abortSignal: new AbortController().signal, onEvent: (e) => events.push(e) });
    expect(seen[0].tools?.map((t) => t.name)).toEqual(["lookup_policy"]);
    expect(seen[0].prompt[0]).toEqual({ role: "system", content: "You are a support agent." });
    expect(JSON.stringify(seen[1].prompt)).toContain('"policy":"30 days"');
    expect(executed).toContain("returns");
    expect(record.output).toBe("Within 30 days.");
    expect(record.toolCalls).toEqual([{ toolCallId: "call_1", toolName: "lookup_policy", input: { topic: "returns" }, rawInput: '{"topic":"returns"}' }]);
    expect(record.normalizedToolCalls[0]).toMatchObject({ toolName: "lookup_policy", input: { topic: "returns" } });
    expect(record.toolResults).toEqual([{ toolCallId: "call_1", toolName: "lookup_policy", output: { topic: "returns", policy: "30 days" } }]);
    expect(record.usage).toEqual({ inputTokens: 30, outputTokens: 13 });
    expect(record.finishReason).toBe("stop");
    expect(record.renderedMessages).toEqual([
      { role: "system", content: "You are a support agent." },
      { role: "user", content: "Find the return policy." },
    ]);
    expect(events.map((e) => [e.type, e.index, e.type === "step" ? e.step.toolCalls.length : e.calls.length])).toEqual([
      ["tool-calls", 0, 1],
      ["step", 0, 1],
      ["step", 1, 0],
    ]);
  });

  it("records the arguments the model sent (raw) even when the tool's zod schema drops one, beside what the tool received", async () => {
    const sent = '{"topic":"returns","lang":"en"}';
    const replies: GenerateResult[] = [
      {
        content: [{ type: "tool-call", toolCallId: "call_1", toolName: "lookup_policy", input: sent }],
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage: usage(20, 8),
        warnings: [],
      },
      text("Within 30 days."),
    ];
    const model = new MockLanguageModelV3({ doGenerate: async () => replies.shift()! });
    const record = await createAgent({ model, tools })(releaseCase(), { abortSignal: new AbortController().signal });
    expect(record.toolCalls).toEqual([
      { toolCallId: "call_1", toolName: "lookup_policy", input: { topic: "returns", lang: "en" }, rawInput: sent, parsedInput: { topic: "returns" } },
    ]);
    expect(record.normalizedToolCalls).toEqual([{ toolName: "lookup_policy", input: { topic: "returns", lang: "en" }, toolCallId: "call_1" }]);
  });

  it("reports the model's tool calls as they arrive, before their tools run (a tool may never return)", async () => {
    let started!: () => void;
    const toolStarted = new Promise<void>((resolve) => (started = resolve));
    const hanging = {
      lookup_policy: tool({
        description: "Look up a policy.",
        inputSchema: z.object({ topic: z.string() }),
        execute: ({ topic }) => {
          started();
          return new Promise<string>(() => void topic);
        },
      }),
    };
    const model = new MockLanguageModelV3({ doGenerate: async () => call("lookup_policy", { topic: "returns", lang: "en" }) });
    const events: RunEvent[] = [];
    void createAgent({ model, tools: hanging })(releaseCase(), { abortSignal: new AbortController().signal, onEvent: (e) => events.push(e) });
    await toolStarted;
    expect(events).toEqual([
      {
        type: "tool-calls",
        index: 0,
        calls: [{ toolCallId: "call_1", toolName: "lookup_policy", input: { topic: "returns", lang: "en" }, rawInput: '{"topic":"returns","lang":"en"}' }],
      },
    ]);
  });

  it("sends no tools for a case without tools, and honours maxSteps and temperature", async () => {
    const seen: CallOptions[] = [];
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        seen.push(options);
        return call("lookup_policy", { topic: "x" });
      },
    });
    const r1 = await createAgent({ model, tools, temperature: 0.5 })(releaseCase({ tools: [], maxSteps: 1 }), { abortSignal: new AbortController().signal });
    expect(seen[0].tools).toBeUndefined();
    expect(seen[0].temperature).toBe(0.5);
    expect(seen).toHaveLength(1);
    expect(r1.toolCalls[0]).toMatchObject({ toolName: "lookup_policy", invalid: true });
    seen.length = 0;
    await createAgent({ model, tools })(releaseCase({ maxSteps: 2, temperature: 0 }), { abortSignal: new AbortController().signal });
    expect(seen).toHaveLength(2);
    expect(seen[0].temperature).toBe(0);
  });

  it("returns a tool's error to the model instead of failing the case", async () => {
    const replies = [call("get_order", { orderId: "o1" }), text("Sorry, I cannot see orders right now.")];
    const model = new MockLanguageModelV3({ doGenerate: async () => replies.shift()! });
    const r = await createAgent({ model, tools })(releaseCase({ tools: ["get_order"] }), { abortSignal: new AbortController().signal });
    expect(r.error).toBeUndefined();
    expect(r.toolResults).toEqual([{ toolCallId: "call_1", toolName: "get_order", output: { error: "orders database is down" }, isError: true }]);
    expect(r.output).toBe("Sorry, I cannot see orders right now.");
  });

  it("classifies a failed model call and never throws", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new APICallError({ message: "Scripted error 500.", url: "http://x", requestBodyValues: {}, statusCode: 500, isRetryable: true });
      },
    });
    const r = await createAgent({ model, tools })(releaseCase(), { abortSignal: new AbortController().signal });
    expect(r.error).toMatchObject({ kind: "server", status: 500 });
    expect(r.finishReason).toBe("error");
    const aborted = new AbortController();
    aborted.abort();
    const r2 = await createAgent({ model, tools })(releaseCase(), { abortSignal: aborted.signal });
    expect(r2.error?.kind).toBe("aborted");
  });

  it("caseToolSet picks the named tools only", () => {
    expect(Object.keys(caseToolSet(tools, ["get_order"])!)).toEqual(["get_order"]);
    expect(caseToolSet(tools, [])).toBeUndefined();
    expect(caseToolSet(tools, ["unknown"])).toBeUndefined();
  });
});
