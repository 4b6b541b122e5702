/**
 * runModelTrial as the one trial engine of code suites too (issue #20): the benchmark's own
 * executable tools, events as the trial goes, and the calls whose tools had not returned when the
 * trial ended.
 */
import { describe, expect, it, vi } from "vitest";
import { APICallError, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { runModelTrial, type TrialEvent } from "./run-trial";
import { mockUsage as usage, textResult } from "./test-support/mock-model";

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;

const call = (id: string, name: string, input: string): GenerateResult => ({
  content: [{ type: "tool-call", toolCallId: id, toolName: name, input }],
  finishReason: { unified: "tool-calls", raw: "tool_calls" },
  usage: usage(20, 8),
  warnings: [],
});

const ask = (content: string) => [{ role: "user" as const, content }];

describe("runModelTrial with executable tools (code suites)", () => {
  it("runs the tools' own execute, keeps the arguments as sent beside what the tool received, and reports events in order", async () => {
    const received: unknown[] = [];
    const toolSet = {
      lookup_policy: tool({
        description: "Look up a policy.",
        inputSchema: z.object({ topic: z.string() }),
        execute: async (input) => {
          received.push(input);
          return { policy: "30 days" };
        },
      }),
    };
    const replies = [call("c1", "lookup_policy", '{"topic":"returns","lang":"en"}'), textResult("Within 30 days.")];
    const model = new MockLanguageModelV3({ doGenerate: async () => replies.shift()! });
    const events: TrialEvent[] = [];
    const record = await runModelTrial({ model, system: "Be brief.", messages: ask("policy?"), toolSet, timeoutMs: 5000, onEvent: (e) => events.push(e) });
    expect(received).toEqual([{ topic: "returns" }]);
    expect(model.doGenerateCalls[0].tools?.map((t) => t.name)).toEqual(["lookup_policy"]);
    expect(record.toolCalls).toEqual([
      {
        toolCallId: "c1",
        toolName: "lookup_policy",
        input: { topic: "returns", lang: "en" },
        rawInput: '{"topic":"returns","lang":"en"}',
        parsedInput: { topic: "returns" },
      },
    ]);
    expect(record.toolResults).toEqual([{ toolCallId: "c1", toolName: "lookup_policy", output: { policy: "30 days" } }]);
    expect(record.output).toBe("Within 30 days.");
    expect(events.map((e) => [e.type, e.index, e.type === "step" ? e.step.text : e.calls.map((c) => c.toolName).join()])).toEqual([
      ["tool-calls", 0, "lookup_policy"],
      ["step", 0, ""],
      ["step", 1, "Within 30 days."],
    ]);
  });

  it("keeps the calls whose tool never returned as an unfinished last step when the trial times out", async () => {
    const toolSet = {
      wait_forever: tool({ description: "Waits.", inputSchema: z.object({ ticket: z.string() }), execute: () => new Promise<string>(() => {}) }),
    };
    const model = new MockLanguageModelV3({ doGenerate: async () => call("c1", "wait_forever", '{"ticket":"T-1"}') });
    const record = await runModelTrial({ model, system: "", messages: ask("wait"), toolSet, timeoutMs: 40 });
    expect(record.error?.kind).toBe("timeout");
    expect(record.steps).toEqual([
      {
        text: "",
        toolCalls: [{ toolCallId: "c1", toolName: "wait_forever", input: { ticket: "T-1" }, rawInput: '{"ticket":"T-1"}' }],
        toolResults: [],
        finishReason: "tool-calls",
        usage: { inputTokens: 0, outputTokens: 0 },
        unfinished: true,
      },
    ]);
    expect(record.toolCalls.map((c) => c.toolName)).toEqual(["wait_forever"]);
    expect(record.stoppedBy).toBe("timeout");
  });

  it("says when it stopped the trial itself (its deadline, the caller's signal), not when the provider timed out", async () => {
    const late = new MockLanguageModelV3({
      doGenerate: () =>
        Promise.reject(new APICallError({ message: "Request Timeout", url: "http://x", requestBodyValues: {}, statusCode: 408, isRetryable: true })),
    });
    const r408 = await runModelTrial({ model: late, system: "", messages: ask("q"), timeoutMs: 5000 });
    expect(r408.error).toMatchObject({ kind: "timeout", status: 408 });
    expect(r408.stoppedBy).toBeUndefined();
    const controller = new AbortController();
    const hang = new MockLanguageModelV3({
      doGenerate: () => {
        controller.abort(new Error("Ctrl-C"));
        return new Promise<never>(() => {});
      },
    });
    const cancelled = await runModelTrial({ model: hang, system: "", messages: ask("q"), timeoutMs: 5000, abortSignal: controller.signal });
    expect([cancelled.error?.kind, cancelled.stoppedBy]).toEqual(["aborted", "abort"]);
  });
});

describe("runModelTrial with a long timeout (a suite case may set days)", () => {
  it("never asks for a timer past Node's 2^31 − 1 ms limit (a longer one fires at once: it would spin every millisecond)", async () => {
    const spy = vi.spyOn(globalThis, "setTimeout");
    try {
      const record = await runModelTrial({ model: new MockLanguageModelV3({ doGenerate: textResult("ok") }), system: "", messages: ask("q"), timeoutMs: 3e9 });
      expect(record.output).toBe("ok");
      const delays = spy.mock.calls.map((c) => c[1] ?? 0);
      expect(delays).toContain(2_147_483_647);
      expect(Math.max(...delays)).toBeLessThanOrEqual(2_147_483_647);
    } finally {
      spy.mockRestore();
    }
  });
});
