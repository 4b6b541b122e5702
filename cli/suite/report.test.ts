import { describe, expect, it } from "vitest";
import { buildTrialRecord } from "@/lib/runtime/trial-record";
import { skippedResult } from "@/lib/suite/result";
import { releaseCase } from "@/lib/suite/testing";
import type { CaseResult } from "@/lib/suite/types";
import { verbosePanels } from "./report";

const usage = { inputTokens: 1, outputTokens: 1 };

describe("verbosePanels", () => {
  it("shows the arguments as sent, what the tool received, and a call still running when the case timed out", () => {
    const trial = buildTrialRecord(
      [
        {
          text: "",
          toolCalls: [
            {
              toolCallId: "c1",
              toolName: "lookup_policy",
              input: { topic: "returns", lang: "en" },
              rawInput: '{"topic":"returns","lang":"en"}',
              parsedInput: { topic: "returns" },
            },
          ],
          toolResults: [{ toolCallId: "c1", toolName: "lookup_policy", output: { policy: "30 days" } }],
          finishReason: "tool-calls",
          usage,
        },
        { text: "", toolCalls: [{ toolCallId: "c2", toolName: "get_order", input: { orderId: "o1" } }], toolResults: [], finishReason: "tool-calls", usage },
      ],
      { latencyMs: 0, renderedMessages: [] },
    );
    const c = releaseCase({ id: "waits", prompt: "Where is o1?" });
    const r: CaseResult = { ...skippedResult(c), skipped: false, sessionId: "s", timedOut: true, error: "run: timed out after 1 s" };
    expect(verbosePanels(c, r, { trial, checks: [] })).toEqual([
      "  Message:",
      "    [user] Where is o1?",
      "  Tool calls:",
      '    lookup_policy({"topic":"returns","lang":"en"}) (the tool received {"topic":"returns"}) → {"policy":"30 days"}',
      '    get_order({"orderId":"o1"}) → (no result: the case ended while the tool ran)',
      "  Response:",
      "    (none)",
    ]);
  });
});
