import { describe, expect, it } from "vitest";
import { emptyCaseContent, type CaseContent } from "@/lib/library/case-content";
import { isMissingRecording, recordedCandidateNames, recordedTrial } from "./recorded";
import type { TrialRecord } from "./trial-record";

function content(partial: Partial<CaseContent>): CaseContent {
  return { ...emptyCaseContent(), ...partial };
}

describe("recordedTrial", () => {
  it("builds a trial from the recorded output", () => {
    const r = recordedTrial(content({ recordedOutputs: { "gpt-4o": "Your order shipped.", other: "x" } }), "gpt-4o");
    expect(r).toEqual({
      output: "Your order shipped.",
      toolCalls: [],
      normalizedToolCalls: [],
      toolResults: [],
      steps: [{ text: "Your order shipped.", toolCalls: [], toolResults: [], finishReason: "stop", usage: { inputTokens: 0, outputTokens: 0 } }],
      finishReason: "stop",
      usage: { inputTokens: 0, outputTokens: 0 },
      latencyMs: 0,
      renderedMessages: [],
    });
  });

  it("includes recorded tool calls, raw and normalized", () => {
    const r = recordedTrial(
      content({
        recordedOutputs: { v1: "Delivered." },
        recordedToolCalls: {
          v1: [
            { toolName: "get_order", input: { orderId: "o-1" } },
            { toolName: "refund", input: '{"amount": 5}' },
          ],
        },
      }),
      "v1",
    ) as TrialRecord;
    expect(r.toolCalls).toEqual([
      { toolCallId: "recorded-0", toolName: "get_order", input: { orderId: "o-1" } },
      { toolCallId: "recorded-1", toolName: "refund", input: '{"amount": 5}' },
    ]);
    expect(r.normalizedToolCalls).toEqual([
      { toolName: "get_order", input: { orderId: "o-1" }, toolCallId: "recorded-0" },
      { toolName: "refund", input: { amount: 5 }, toolCallId: "recorded-1" },
    ]);
    expect(r.steps[0].toolCalls).toHaveLength(2);
  });

  it('accepts recorded tool calls without a recorded output (output "")', () => {
    const r = recordedTrial(content({ recordedToolCalls: { bfcl: [{ toolName: "calc", input: { x: 1 } }] } }), "bfcl") as TrialRecord;
    expect(r.output).toBe("");
    expect(r.toolCalls).toHaveLength(1);
  });

  it("keeps an empty recorded answer as an answer", () => {
    const r = recordedTrial(content({ recordedOutputs: { v1: "" } }), "v1");
    expect(isMissingRecording(r)).toBe(false);
    expect((r as TrialRecord).output).toBe("");
  });

  it("reports a missing recording, naming the candidate", () => {
    const r = recordedTrial(content({ recordedOutputs: { v1: "a" } }), "v2");
    expect(r).toEqual({ missing: true, reason: 'no recorded output for candidate "v2"' });
    expect(isMissingRecording(r)).toBe(true);
  });

  it("does not treat inherited object keys as candidates", () => {
    expect(isMissingRecording(recordedTrial(content({}), "toString"))).toBe(true);
  });
});

describe("recordedCandidateNames", () => {
  it("returns the union of names in first-appearance order with case counts", () => {
    const names = recordedCandidateNames([
      content({ recordedOutputs: { a: "1", b: "2" } }),
      content({ recordedOutputs: { b: "3" }, recordedToolCalls: { b: [], c: [] } }),
      content({}),
      content({ recordedOutputs: { a: "4" } }),
    ]);
    expect(names).toEqual([
      { name: "a", cases: 2 },
      { name: "b", cases: 2 },
      { name: "c", cases: 1 },
    ]);
  });

  it("returns [] for no cases", () => {
    expect(recordedCandidateNames([])).toEqual([]);
  });
});
