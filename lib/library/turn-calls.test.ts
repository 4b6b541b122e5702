import { describe, expect, it } from "vitest";
import { parseHistory } from "@/lib/import/history";
import { turnToolActivity } from "./turn-calls";

const turnsOf = (cell: unknown) => parseHistory(JSON.stringify(cell)).turns;

describe("turnToolActivity: what an imported tool turn did", () => {
  it("reads OpenAI tool calls with their arguments (JSON text pretty-printed) and the tool result's call", () => {
    const [call, result] = turnsOf([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "get_order", arguments: '{"order_id":"A-1001","include":["items"]}' } },
          { id: "call_2", type: "function", function: { name: "lookup_policy", arguments: "not json" } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: '{"status":"shipped"}' },
    ]);
    expect(turnToolActivity(call)).toEqual({
      calls: [
        { id: "call_1", name: "get_order", arguments: '{\n  "order_id": "A-1001",\n  "include": [\n    "items"\n  ]\n}' },
        { id: "call_2", name: "lookup_policy", arguments: "not json" },
      ],
      result: null,
    });
    expect(turnToolActivity(result)).toEqual({ calls: [], result: { id: "call_1", name: null } });
  });

  it("reads a legacy function_call, Anthropic tool_use parts and ai SDK tool-call parts", () => {
    const [legacy, anthropic, sdk, anthropicResult, sdkResult] = turnsOf([
      { role: "assistant", content: null, function_call: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me check." },
          { type: "tool_use", id: "toolu_1", name: "get_order", input: { order_id: 7 } },
        ],
      },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "tc1", toolName: "refund", input: { amount: 12.5 } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "shipped" }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "tc1", toolName: "refund", output: { type: "json", value: { ok: true } } }] },
    ]);
    expect(turnToolActivity(legacy).calls).toEqual([{ id: null, name: "get_weather", arguments: '{\n  "city": "Oslo"\n}' }]);
    expect(turnToolActivity(anthropic).calls).toEqual([{ id: "toolu_1", name: "get_order", arguments: '{\n  "order_id": 7\n}' }]);
    expect(turnToolActivity(sdk).calls).toEqual([{ id: "tc1", name: "refund", arguments: '{\n  "amount": 12.5\n}' }]);
    expect(turnToolActivity(anthropicResult).result).toEqual({ id: "toolu_1", name: null });
    expect(turnToolActivity(sdkResult).result).toEqual({ id: "tc1", name: "refund" });
  });

  it("finds nothing in a plain text turn, a turn without raw JSON, or unreadable raw text", () => {
    expect(turnToolActivity({ role: "user", content: "Hi", replayable: true })).toEqual({ calls: [], result: null });
    expect(turnToolActivity({ role: "tool", content: "42", replayable: false, raw: "{broken" })).toEqual({ calls: [], result: null });
    expect(turnToolActivity({ role: "user", content: "Hi", raw: '{"role":"User","content":"Hi","name":"ann"}' })).toEqual({ calls: [], result: null });
  });
});
