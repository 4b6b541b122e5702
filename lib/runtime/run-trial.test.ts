import { describe, expect, it, vi } from "vitest";
import { APICallError } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import type { ToolDefinition } from "@/lib/library/case-content";
import { runModelTrial, runModelTrialWithRetries } from "./run-trial";
import { mockUsage as usage, textResult } from "./test-support/mock-model";

type LanguageModelV3GenerateResult = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;
type LanguageModelV3CallOptions = Parameters<MockLanguageModelV3["doGenerate"]>[0];

function toolCallResult(calls: { id: string; name: string; input: string }[], input = 20, output = 8): LanguageModelV3GenerateResult {
  return {
    content: calls.map((c) => ({ type: "tool-call" as const, toolCallId: c.id, toolName: c.name, input: c.input })),
    finishReason: { unified: "tool-calls", raw: "tool_calls" },
    usage: usage(input, output),
    warnings: [],
  };
}

const getOrder: ToolDefinition = {
  name: "get_order",
  description: "Look up an order by id",
  inputSchema: { type: "object", properties: { orderId: { type: "string" } }, required: ["orderId"] },
  fixtures: { byArguments: [{ when: { orderId: "order_123" }, result: { status: "delivered", date: "2024-05-01" } }] },
};

/** A clock that advances `step` ms per reading. */
function fakeClock(step: number) {
  let t = 1000;
  return () => {
    const now = t;
    t += step;
    return now;
  };
}

function waitForAbort(options: LanguageModelV3CallOptions): Promise<never> {
  return new Promise((_, reject) => {
    const signal = options.abortSignal;
    if (!signal) return;
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

describe("runModelTrial", () => {
  it("records a plain text answer with usage, latency and the rendered messages", async () => {
    const model = new MockLanguageModelV3({ doGenerate: textResult("Hello Ada!", 12, 3) });
    const record = await runModelTrial({
      model,
      system: "You are kind.",
      messages: [{ role: "user", content: "Hi, I am Ada." }],
      temperature: 0.2,
      maxOutputTokens: 100,
      timeoutMs: 5000,
      now: fakeClock(250),
    });
    expect(record.output).toBe("Hello Ada!");
    expect(record.finishReason).toBe("stop");
    expect(record.usage).toEqual({ inputTokens: 12, outputTokens: 3 });
    expect(record.latencyMs).toBe(250);
    expect(record.error).toBeUndefined();
    expect(record.toolCalls).toEqual([]);
    expect(record.steps).toEqual([{ text: "Hello Ada!", toolCalls: [], toolResults: [], finishReason: "stop", usage: { inputTokens: 12, outputTokens: 3 } }]);
    expect(record.renderedMessages).toEqual([
      { role: "system", content: "You are kind." },
      { role: "user", content: "Hi, I am Ada." },
    ]);
    expect(record.responseMessages?.[0]).toMatchObject({ role: "assistant" });

    const call = model.doGenerateCalls[0];
    expect(call.temperature).toBe(0.2);
    expect(call.maxOutputTokens).toBe(100);
    expect(call.tools).toBeUndefined();
    expect(call.prompt).toEqual([
      { role: "system", content: "You are kind." },
      { role: "user", content: [{ type: "text", text: "Hi, I am Ada." }] },
    ]);
    expect(JSON.parse(JSON.stringify(record))).toEqual(record);
  });

  it("omits the system message when there is none", async () => {
    const model = new MockLanguageModelV3({ doGenerate: textResult("ok") });
    const record = await runModelTrial({ model, system: "", messages: [{ role: "user", content: "q" }], timeoutMs: 1000 });
    expect(record.renderedMessages).toEqual([{ role: "user", content: "q" }]);
    expect(model.doGenerateCalls[0].prompt[0].role).toBe("user");
  });

  it("runs a tool call through its fixture and records both steps with usage summed", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [toolCallResult([{ id: "call_1", name: "get_order", input: '{"orderId":"order_123"}' }], 20, 8), textResult("Delivered on May 1.", 35, 6)],
    });
    const record = await runModelTrial({
      model,
      system: "Support bot",
      messages: [{ role: "user", content: "Where is order_123?" }],
      tools: [getOrder],
      timeoutMs: 5000,
    });
    expect(record.error).toBeUndefined();
    expect(record.output).toBe("Delivered on May 1.");
    expect(record.finishReason).toBe("stop");
    expect(record.toolCalls).toEqual([{ toolCallId: "call_1", toolName: "get_order", input: { orderId: "order_123" }, rawInput: '{"orderId":"order_123"}' }]);
    expect(record.normalizedToolCalls).toEqual([{ toolName: "get_order", input: { orderId: "order_123" }, toolCallId: "call_1" }]);
    expect(record.toolResults).toEqual([{ toolCallId: "call_1", toolName: "get_order", output: { status: "delivered", date: "2024-05-01" } }]);
    expect(record.usage).toEqual({ inputTokens: 55, outputTokens: 14 });
    expect(record.steps.map((s) => [s.finishReason, s.text, s.toolCalls.length, s.toolResults.length, s.usage])).toEqual([
      ["tool-calls", "", 1, 1, { inputTokens: 20, outputTokens: 8 }],
      ["stop", "Delivered on May 1.", 0, 0, { inputTokens: 35, outputTokens: 6 }],
    ]);

    // The model saw the tool with its schema, and the second call carried the fixture result.
    expect(model.doGenerateCalls).toHaveLength(2);
    const tool = model.doGenerateCalls[0].tools?.[0];
    expect(tool).toMatchObject({ type: "function", name: "get_order", description: "Look up an order by id" });
    expect((tool as { inputSchema: unknown }).inputSchema).toMatchObject({ type: "object", required: ["orderId"] });
    const second = model.doGenerateCalls[1].prompt;
    const toolMessage = second.find((m) => m.role === "tool");
    expect(toolMessage?.content[0]).toMatchObject({
      type: "tool-result",
      toolCallId: "call_1",
      toolName: "get_order",
      output: { type: "json", value: { status: "delivered", date: "2024-05-01" } },
    });
    expect(record.responseMessages?.map((m) => m.role)).toEqual(["assistant", "tool", "assistant"]);
  });

  it("records the arguments exactly as the model sent them (raw text) beside the parsed ones", async () => {
    const sent = '{ "orderId": "order_123", "lang": "en" }';
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolCallResult([{ id: "c1", name: "get_order", input: sent }]),
        toolCallResult([{ id: "c1", name: "get_order", input: "" }]),
        textResult("Delivered."),
      ],
    });
    const record = await runModelTrial({ model, system: "", messages: [{ role: "user", content: "order_123?" }], tools: [getOrder], timeoutMs: 5000 });
    // A provider that reuses call ids across steps still gets each step's own text.
    expect(record.toolCalls).toEqual([
      { toolCallId: "c1", toolName: "get_order", input: { orderId: "order_123", lang: "en" }, rawInput: sent },
      { toolCallId: "c1", toolName: "get_order", input: {}, rawInput: "" },
    ]);
    expect(record.normalizedToolCalls[0]).toEqual({ toolName: "get_order", input: { orderId: "order_123", lang: "en" }, toolCallId: "c1" });
  });

  it("returns the no-fixture error to the model instead of failing", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [toolCallResult([{ id: "c1", name: "get_order", input: '{"orderId":"zzz"}' }]), textResult("I could not find it.")],
    });
    const record = await runModelTrial({ model, system: "", messages: [{ role: "user", content: "zzz?" }], tools: [getOrder], timeoutMs: 5000 });
    expect(record.error).toBeUndefined();
    expect(record.toolResults).toEqual([
      { toolCallId: "c1", toolName: "get_order", output: { error: 'no fixture for tool get_order with arguments {"orderId":"zzz"}' } },
    ]);
    expect(record.output).toBe("I could not find it.");
  });

  it("stops after maxSteps model calls", async () => {
    let n = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => toolCallResult([{ id: `c${++n}`, name: "get_order", input: '{"orderId":"order_123"}' }], 5, 1),
    });
    const record = await runModelTrial({ model, system: "", messages: [{ role: "user", content: "loop" }], tools: [getOrder], maxSteps: 3, timeoutMs: 5000 });
    expect(model.doGenerateCalls).toHaveLength(3);
    expect(record.steps).toHaveLength(3);
    expect(record.toolCalls.map((c) => c.toolCallId)).toEqual(["c1", "c2", "c3"]);
    expect(record.finishReason).toBe("tool-calls");
    expect(record.output).toBe("");
    expect(record.usage).toEqual({ inputTokens: 15, outputTokens: 3 });
  });

  it("uses 5 steps by default", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => toolCallResult([{ id: "c", name: "get_order", input: '{"orderId":"order_123"}' }]),
    });
    await runModelTrial({ model, system: "", messages: [{ role: "user", content: "loop" }], tools: [getOrder], timeoutMs: 5000 });
    expect(model.doGenerateCalls).toHaveLength(5);
  });

  it("records invalid tool calls (unknown tool, bad JSON) as sent, with the error returned to the model", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolCallResult([
          { id: "c1", name: "delete_everything", input: '{"really":true}' },
          { id: "c2", name: "get_order", input: "{not json" },
        ]),
        textResult("Sorry."),
      ],
    });
    const record = await runModelTrial({ model, system: "", messages: [{ role: "user", content: "x" }], tools: [getOrder], timeoutMs: 5000 });
    expect(record.toolCalls).toHaveLength(2);
    expect(record.toolCalls[0]).toMatchObject({ toolCallId: "c1", toolName: "delete_everything", input: { really: true }, invalid: true });
    expect(record.toolCalls[0].error).toMatch(/delete_everything/);
    expect(record.toolCalls[1]).toMatchObject({ toolCallId: "c2", toolName: "get_order", input: "{not json", rawInput: "{not json", invalid: true });
    expect(record.normalizedToolCalls[1]).toMatchObject({ toolName: "get_order", input: "{not json" });
    expect(record.normalizedToolCalls[1].argumentsError).toBeTruthy();
    expect(record.toolResults.map((r) => [r.toolCallId, r.isError])).toEqual([
      ["c1", true],
      ["c2", true],
    ]);
    expect(record.output).toBe("Sorry.");
  });

  it("times out a model that honours the abort signal", async () => {
    const model = new MockLanguageModelV3({ doGenerate: waitForAbort });
    const record = await runModelTrial({ model, system: "", messages: [{ role: "user", content: "slow" }], timeoutMs: 40 });
    expect(record.error).toEqual({ kind: "timeout", retryable: false, message: "model call timed out after 40 ms" });
    expect(record.finishReason).toBe("error");
    expect(record.output).toBe("");
    expect(model.doGenerateCalls[0].abortSignal?.aborted).toBe(true);
  });

  it("times out even a model that ignores the abort signal", async () => {
    // The model never settles: the trial ends only because the timeout does not wait for it.
    const model = new MockLanguageModelV3({ doGenerate: () => new Promise<never>(() => {}) });
    const record = await runModelTrial({ model, system: "", messages: [{ role: "user", content: "hang" }], timeoutMs: 40 });
    expect(record.error).toEqual({ kind: "timeout", retryable: false, message: "model call timed out after 40 ms" });
  });

  it("latency is the model calls' own time: a wait for a provider slot is kept apart (it read 1,001 ms for 36 ms calls)", async () => {
    let t = 0;
    const now = () => t;
    // Two calls of 36 ms each (a tool round, then the answer); each first waits 500 ms for a slot.
    let calls = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        t += 36;
        return ++calls === 1
          ? {
              content: [{ type: "tool-call", toolCallId: "c1", toolName: "get_order", input: '{"orderId":"o1"}' }],
              finishReason: { unified: "tool-calls", raw: "tool_calls" },
              usage: usage(5, 5),
              warnings: [],
            }
          : textResult("Delivered.");
      },
    });
    const held: string[] = [];
    const slot = {
      acquire: async () => {
        t += 500;
        held.push("acquire");
      },
      release: () => void held.push("release"),
    };
    const tools: ToolDefinition[] = [
      {
        name: "get_order",
        description: "Look up an order",
        inputSchema: { type: "object", properties: { orderId: { type: "string" } } },
        fixtures: { default: { status: "delivered" } },
      },
    ];
    const record = await runModelTrial({ model, system: "", messages: [{ role: "user", content: "Where is o1?" }], tools, timeoutMs: 5000, now, slot });
    expect(record.output).toBe("Delivered.");
    expect(record.latencyMs).toBe(72);
    expect(record.waitMs).toBe(1000);
    expect(record.calls).toBe(2);
    // The slot is held for each call only, never across the tool round.
    expect(held).toEqual(["acquire", "release", "acquire", "release"]);
  });

  it("a wait for a provider slot does not count against the trial's timeout", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let t = 0;
      let grant!: () => void;
      const slot = { acquire: () => new Promise<void>((r) => (grant = r)), release: () => {} };
      const model = new MockLanguageModelV3({
        doGenerate: async () => {
          t += 400; // the call itself: within the 1,000 ms timeout
          return textResult("on time");
        },
      });
      const pending = runModelTrial({ model, system: "", messages: [{ role: "user", content: "q" }], timeoutMs: 1000, now: () => t, slot });
      // Other trials hold the provider for 2.5 s: longer than the timeout.
      for (let i = 0; i < 5; i++) {
        t += 500;
        await vi.advanceTimersByTimeAsync(500);
      }
      grant();
      const record = await pending;
      expect(record.error).toBeUndefined();
      expect(record.output).toBe("on time");
      expect(record.latencyMs).toBe(400);
      // The call asked for its slot once the SDK had prepared it (at 0 or 500 ms): it waited 2 s or more.
      expect(record.waitMs).toBeGreaterThanOrEqual(2000);
    } finally {
      vi.useRealTimers();
    }
  });

  it("says when each model call starts — after its wait for a provider slot, never while it waits", async () => {
    const events: string[] = [];
    let grant!: () => void;
    const slot = { acquire: () => (events.push("slot asked"), new Promise<void>((r) => (grant = r))), release: () => {} };
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        events.push("request");
        return textResult("done");
      },
    });
    const pending = runModelTrial({
      model,
      system: "",
      messages: [{ role: "user", content: "q" }],
      timeoutMs: 60_000,
      slot,
      onModelCall: () => events.push("call starts"),
    });
    // The trial waits for its slot: its model call has not started (a worker that dies now spent nothing).
    for (let i = 0; i < 20 && events.length === 0; i++) await new Promise((r) => setImmediate(r));
    expect(events).toEqual(["slot asked"]);
    grant();
    expect((await pending).output).toBe("done");
    expect(events).toEqual(["slot asked", "call starts", "request"]);
  });

  it("reports `aborted` when the caller's signal fires", async () => {
    const controller = new AbortController();
    // The caller cancels while the model is working on the call (not after some time).
    const model = new MockLanguageModelV3({
      doGenerate: (options) => {
        controller.abort();
        return waitForAbort(options);
      },
    });
    const record = await runModelTrial({ model, system: "", messages: [{ role: "user", content: "q" }], timeoutMs: 5000, abortSignal: controller.signal });
    expect(record.error).toEqual({ kind: "aborted", retryable: false, message: "model call was aborted" });
  });

  it("does not call the model when the signal is already aborted", async () => {
    const model = new MockLanguageModelV3({ doGenerate: textResult("never") });
    const controller = new AbortController();
    controller.abort(new Error("bench cancelled"));
    const record = await runModelTrial({ model, system: "", messages: [{ role: "user", content: "q" }], timeoutMs: 5000, abortSignal: controller.signal });
    expect(record.error?.kind).toBe("aborted");
    expect(record.latencyMs).toBe(0);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it("classifies thrown API errors and keeps the steps finished before the failure", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        if (model.doGenerateCalls.length === 1) return toolCallResult([{ id: "c1", name: "get_order", input: '{"orderId":"order_123"}' }], 7, 2);
        void options;
        throw new APICallError({
          message: "Rate limit reached for requests",
          url: "https://api.example/v1/chat/completions",
          requestBodyValues: {},
          statusCode: 429,
          responseHeaders: { "retry-after": "2" },
        });
      },
    });
    const record = await runModelTrial({ model, system: "", messages: [{ role: "user", content: "q" }], tools: [getOrder], timeoutMs: 5000 });
    expect(record.error).toEqual({ kind: "rate_limit", retryable: true, status: 429, message: "Rate limit reached for requests", retryAfterMs: 2000 });
    expect(record.finishReason).toBe("error");
    expect(record.output).toBe("");
    expect(record.toolCalls).toEqual([{ toolCallId: "c1", toolName: "get_order", input: { orderId: "order_123" }, rawInput: '{"orderId":"order_123"}' }]);
    expect(record.usage).toEqual({ inputTokens: 7, outputTokens: 2 });
  });

  it.each([
    [500, "server", true],
    [503, "server", true],
    [401, "auth", false],
    [403, "auth", false],
    [404, "not_found", false],
    [400, "other", false],
  ] as const)("classifies HTTP %i as %s", async (statusCode, kind, retryable) => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new APICallError({ message: `status ${statusCode}`, url: "u", requestBodyValues: {}, statusCode });
      },
    });
    const record = await runModelTrial({ model, system: "", messages: [{ role: "user", content: "q" }], timeoutMs: 5000 });
    expect(record.error).toEqual({ kind, retryable, status: statusCode, message: `status ${statusCode}` });
  });

  it("records provider warnings once, in words", async () => {
    const warned = { ...textResult("ok"), warnings: [{ type: "unsupported" as const, feature: "temperature", details: "reasoning model" }] };
    const model = new MockLanguageModelV3({ doGenerate: warned });
    const record = await runModelTrial({ model, system: "", messages: [{ role: "user", content: "q" }], temperature: 1, timeoutMs: 5000 });
    expect(record.warnings).toEqual(["unsupported: temperature (reasoning model)"]);
  });

  it("reports usage 0 when the provider gives none", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: {
        content: [{ type: "text", text: "x" }],
        finishReason: { unified: "stop", raw: undefined },
        usage: {
          inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: undefined, text: undefined, reasoning: undefined },
        },
        warnings: [],
      },
    });
    const record = await runModelTrial({ model, system: "", messages: [{ role: "user", content: "q" }], timeoutMs: 5000 });
    expect(record.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
  });
});

describe("runModelTrialWithRetries", () => {
  it("retries a 429 then succeeds, waiting the Retry-After delay", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        if (model.doGenerateCalls.length === 1) {
          throw new APICallError({ message: "slow down", url: "u", requestBodyValues: {}, statusCode: 429, responseHeaders: { "retry-after-ms": "150" } });
        }
        return textResult("fine");
      },
    });
    const waits: number[] = [];
    const record = await runModelTrialWithRetries(
      { model, system: "", messages: [{ role: "user", content: "q" }], timeoutMs: 5000 },
      { sleep: async (ms) => void waits.push(ms) },
    );
    expect(record.output).toBe("fine");
    expect(record.error).toBeUndefined();
    expect(record.attempts).toBe(2);
    expect(waits).toEqual([150]);
  });

  it("does not retry a 401 and returns its error", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new APICallError({ message: "bad key", url: "u", requestBodyValues: {}, statusCode: 401 });
      },
    });
    const record = await runModelTrialWithRetries(
      { model, system: "", messages: [{ role: "user", content: "q" }], timeoutMs: 5000 },
      { sleep: async () => {} },
    );
    expect(record.attempts).toBe(1);
    expect(record.error?.kind).toBe("auth");
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it("gives up after the configured retries on repeated 500s", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new APICallError({ message: "boom", url: "u", requestBodyValues: {}, statusCode: 500 });
      },
    });
    const record = await runModelTrialWithRetries(
      { model, system: "", messages: [{ role: "user", content: "q" }], timeoutMs: 5000 },
      { retries: 2, sleep: async () => {}, random: () => 0 },
    );
    expect(record.attempts).toBe(3);
    expect(record.error).toMatchObject({ kind: "server", status: 500 });
    expect(model.doGenerateCalls).toHaveLength(3);
  });
});
