import { describe, expect, it } from "vitest";
import { ERASED_CHECK_MESSAGE, eraseTrialText } from "./erase";

describe("eraseTrialText", () => {
  const checks = JSON.stringify([
    {
      key: "c1:judge",
      kind: "judge",
      label: "Polite",
      verdict: "passed",
      score: 1,
      message: "Quotes the input: my card 4111",
      priority: "primary",
      criterionId: 7,
      details: { input: "my card 4111" },
      usage: { inputTokens: 10, outputTokens: 2, costUsd: null },
    },
  ]);

  it("keeps a model trial's answer and tool calls, drops what quotes the case", () => {
    const record = JSON.stringify({
      renderedMessages: [{ role: "user", content: "my card 4111" }],
      steps: [
        {
          text: "",
          toolCalls: [{ toolName: "get_order", input: { id: "A1" } }],
          toolResults: [{ toolName: "get_order", output: { owner: "Ann" } }],
          finishReason: "tool-calls",
          usage: { inputTokens: 1, outputTokens: 1 },
        },
      ],
      toolCalls: [{ toolName: "get_order", input: { id: "A1" } }],
      toolResults: [{ toolName: "get_order", output: { owner: "Ann" } }],
      attempts: 2,
    });
    const e = eraseTrialText({ checks, record, output: "Your order ships today." }, "model");
    expect(JSON.parse(e.checks!)).toEqual([
      {
        key: "c1:judge",
        kind: "judge",
        label: "Polite",
        verdict: "passed",
        score: 1,
        message: ERASED_CHECK_MESSAGE,
        priority: "primary",
        criterionId: 7,
        usage: { inputTokens: 10, outputTokens: 2, costUsd: null },
      },
    ]);
    expect(JSON.parse(e.record!)).toEqual({
      steps: [
        {
          text: "",
          toolCalls: [{ toolName: "get_order", input: { id: "A1" } }],
          toolResults: [],
          finishReason: "tool-calls",
          usage: { inputTokens: 1, outputTokens: 1 },
        },
      ],
      toolCalls: [{ toolName: "get_order", input: { id: "A1" } }],
      attempts: 2,
    });
    expect(e.output).toBe("Your order ships today.");
  });

  it("drops a recorded candidate's answer and record (they are the case's recorded output)", () => {
    expect(eraseTrialText({ checks: null, record: '{"toolCalls":[]}', output: "#### 12" }, "recorded")).toEqual({ checks: null, record: null, output: null });
  });

  it("drops unreadable JSON instead of keeping it", () => {
    expect(eraseTrialText({ checks: "not json", record: "{", output: null }, "model")).toEqual({ checks: null, record: null, output: null });
  });
});
