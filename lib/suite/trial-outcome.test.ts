import { describe, expect, it } from "vitest";
import type { TrialRecord, TrialStep } from "@/lib/runtime/trial-record";
import { buildTrialRecord } from "@/lib/runtime/trial-record";
import { caseTrialOutcome } from "./trial-outcome";

const lookup = { toolCallId: "c1", toolName: "lookup_policy", input: { topic: "returns" } };
const wait = { toolCallId: "c2", toolName: "wait_forever", input: { ticket: "T-1" }, rawInput: '{"ticket":"T-1"}' };
const step = (text: string, more: Partial<TrialStep> = {}): TrialStep => ({
  text,
  toolCalls: [],
  toolResults: [],
  finishReason: "stop",
  usage: { inputTokens: 1, outputTokens: 1 },
  ...more,
});
const record = (steps: TrialStep[], more: Partial<TrialRecord> = {}) => buildTrialRecord(steps, { latencyMs: 1, renderedMessages: [], ...more });

describe("caseTrialOutcome (a case's result fields from its trial record)", () => {
  it("a finished trial: its output and tool calls, checkable, no error", () => {
    const r = record([step("", { toolCalls: [lookup], finishReason: "tool-calls" }), step("Within 30 days.")]);
    expect(caseTrialOutcome(r, 120)).toEqual({
      output: "Within 30 days.",
      toolsCalled: ["lookup_policy"],
      timedOut: false,
      cancelled: false,
      error: null,
      checkable: true,
    });
  });

  it("a timed-out trial: timedOut, the text of its last finished step, every call including the one whose tool was running", () => {
    const r = record(
      [
        step("Let me wait.", { toolCalls: [lookup], finishReason: "tool-calls" }),
        step("", { toolCalls: [wait], finishReason: "tool-calls", usage: { inputTokens: 0, outputTokens: 0 }, unfinished: true }),
      ],
      {
        error: { kind: "timeout", retryable: false, message: "model call timed out after 1000 ms" },
        stoppedBy: "timeout",
      },
    );
    expect(caseTrialOutcome(r, 1)).toEqual({
      output: "Let me wait.",
      toolsCalled: ["lookup_policy", "wait_forever"],
      timedOut: true,
      cancelled: false,
      error: "run: timed out after 1 s",
      checkable: false,
    });
  });

  it("a trial that timed out before any answer has no output (null, not empty)", () => {
    const r = record([], { error: { kind: "timeout", retryable: false, message: "model call timed out after 50 ms" }, stoppedBy: "timeout" });
    expect(caseTrialOutcome(r, 0.05)).toMatchObject({ output: null, toolsCalled: [], timedOut: true, error: "run: timed out after 0.05 s" });
  });

  it("a cancelled trial: run: cancelled, not timed out", () => {
    const r = record([], { error: { kind: "aborted", retryable: false, message: "model call was aborted" }, stoppedBy: "abort" });
    expect(caseTrialOutcome(r, 120)).toEqual({ output: null, toolsCalled: [], timedOut: false, cancelled: true, error: "run: cancelled", checkable: false });
  });

  it("a provider's own timeout (HTTP 408) or an abort the suite did not ask for is a model-call error, not the case's timeout or a cancel", () => {
    const late = record([], { error: { kind: "timeout", retryable: true, status: 408, message: "Request Timeout" } });
    expect(caseTrialOutcome(late, 120)).toMatchObject({ output: "", timedOut: false, cancelled: false, error: "run: timeout: Request Timeout" });
    const dropped = record([], { error: { kind: "aborted", retryable: false, message: "model call was aborted" } });
    expect(caseTrialOutcome(dropped, 120)).toMatchObject({ output: "", timedOut: false, cancelled: false, error: "run: aborted: model call was aborted" });
  });

  it("a failed model call: its kind and message, the record's (empty) output", () => {
    const r = record([], { error: { kind: "server", retryable: true, status: 500, message: "Scripted error 500." } });
    expect(caseTrialOutcome(r, 120)).toEqual({
      output: "",
      toolsCalled: [],
      timedOut: false,
      cancelled: false,
      error: "run: server: Scripted error 500.",
      checkable: false,
    });
  });
});
