import { describe, expect, it } from "vitest";
import { normalizeToolCall, normalizeToolCalls, normalizedCallsOf, parseToolArguments } from "./normalize";

describe("normalizeToolCalls", () => {
  it.each([
    [
      "ai SDK, object input",
      { type: "tool-call", toolCallId: "a1", toolName: "get_order", input: { orderId: "o1" } },
      { toolName: "get_order", input: { orderId: "o1" }, toolCallId: "a1" },
    ],
    [
      "ai SDK, JSON string input",
      { toolCallId: "a2", toolName: "get_order", input: '{"orderId":"o1"}' },
      { toolName: "get_order", input: { orderId: "o1" }, toolCallId: "a2" },
    ],
    ["ai SDK v4 args", { toolName: "t", args: { x: 1 } }, { toolName: "t", input: { x: 1 } }],
    [
      "OpenAI raw",
      { id: "call_1", type: "function", function: { name: "get_order", arguments: '{"orderId":"o1"}' } },
      { toolName: "get_order", input: { orderId: "o1" }, toolCallId: "call_1" },
    ],
    [
      "OpenAI raw, empty arguments",
      { id: "call_2", type: "function", function: { name: "ping", arguments: "" } },
      { toolName: "ping", input: {}, toolCallId: "call_2" },
    ],
    ["BFCL recorded", { name: "math.factorial", arguments: { number: 5 } }, { toolName: "math.factorial", input: { number: 5 } }],
    ["name + JSON string arguments", { name: "f", arguments: '{"a":[1,2]}' }, { toolName: "f", input: { a: [1, 2] } }],
    ["Anthropic-like name + input", { type: "tool_use", id: "tu_1", name: "f", input: { a: 1 } }, { toolName: "f", input: { a: 1 }, toolCallId: "tu_1" }],
    ["double-encoded JSON", { name: "f", arguments: JSON.stringify(JSON.stringify({ a: 1 })) }, { toolName: "f", input: { a: 1 } }],
    ["missing input", { toolName: "f" }, { toolName: "f", input: {} }],
  ])("%s", (_name, raw, expected) => {
    expect(normalizeToolCall(raw)).toEqual(expected);
  });

  it("keeps an unparsable argument string and says why", () => {
    const n = normalizeToolCall({ toolName: "f", input: '{"a": 1,' });
    expect(n.toolName).toBe("f");
    expect(n.input).toBe('{"a": 1,');
    expect(n.argumentsError).toMatch(/JSON/);
  });

  it("keeps entries it cannot read, with an empty name", () => {
    expect(normalizeToolCalls(["oops", { foo: 1 }])).toEqual([
      { toolName: "", input: "oops" },
      { toolName: "", input: { foo: 1 } },
    ]);
  });

  it("returns [] for a non-list and keeps order", () => {
    expect(normalizeToolCalls(null)).toEqual([]);
    expect(
      normalizeToolCalls([
        { name: "a", arguments: {} },
        { name: "b", arguments: {} },
      ]).map((c) => c.toolName),
    ).toEqual(["a", "b"]);
  });

  it("prefers the trial's normalizedToolCalls and memoises the computed ones", () => {
    const given = [{ toolName: "x", input: {} }];
    expect(normalizedCallsOf({ toolCalls: [{ name: "y", arguments: {} }], normalizedToolCalls: given })).toBe(given);
    const t = { toolCalls: [{ name: "y", arguments: "{}" }] };
    expect(normalizedCallsOf(t)).toBe(normalizedCallsOf(t));
  });

  it("parseToolArguments", () => {
    expect(parseToolArguments(" ")).toEqual({ input: {} });
    expect(parseToolArguments(undefined)).toEqual({ input: {} });
    expect(parseToolArguments("[1]")).toEqual({ input: [1] });
    expect(parseToolArguments("nope").error).toBeDefined();
  });
});
