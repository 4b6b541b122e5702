import { describe, expect, it } from "vitest";
import { emptyCaseContent, type ToolDefinition } from "@/lib/library/case-content";
import { jsonEqual } from "./json-equal";
import { exposedTools, fixtureResult, matchFixture, missingToolNames, toAiSdkTools, toProviderJsonSchema } from "./tools";

const objectSchema = { type: "object", properties: { orderId: { type: "string" } }, required: ["orderId"] };

const getOrder: ToolDefinition = {
  name: "get_order",
  description: "Look up an order",
  inputSchema: objectSchema,
  fixtures: {
    byArguments: [
      { when: { orderId: "order_123" }, result: { status: "delivered" } },
      { when: { orderId: "order_456" }, result: { status: "in transit" } },
    ],
    default: { error: "order not found" },
  },
};
const refund: ToolDefinition = { name: "refund", description: "Refund", inputSchema: objectSchema };
const search: ToolDefinition = {
  name: "search",
  description: "Search",
  inputSchema: { type: "object", properties: {} },
  fixtures: {
    byArguments: [
      { when: { filter: { tags: ["a", "b"], price: { max: 10 } } }, result: ["nested-hit"] },
      { when: { q: "shoes" }, result: ["shoe-1"] },
      { when: {}, result: ["catch-all"] },
    ],
  },
};

describe("exposedTools", () => {
  it("exposes every prompt tool when the case names none, after the case's own definitions", () => {
    const caseTool: ToolDefinition = { name: "calc", description: "BFCL fn", inputSchema: {} };
    const tools = exposedTools([getOrder, refund], { ...emptyCaseContent(), toolDefinitions: [caseTool] });
    expect(tools.map((t) => t.name)).toEqual(["calc", "get_order", "refund"]);
  });

  it("filters prompt tools by content.tools, keeping the prompt's order", () => {
    const tools = exposedTools([getOrder, refund, search], { ...emptyCaseContent(), tools: ["search", "get_order"] });
    expect(tools.map((t) => t.name)).toEqual(["get_order", "search"]);
  });

  it("exposes no prompt tool for an empty list, but still the case's own tools", () => {
    const caseTool: ToolDefinition = { name: "calc", description: "", inputSchema: {} };
    expect(exposedTools([getOrder], { tools: [] }).map((t) => t.name)).toEqual([]);
    expect(exposedTools([getOrder], { tools: [], toolDefinitions: [caseTool] }).map((t) => t.name)).toEqual(["calc"]);
  });

  it("lets a case definition win over a prompt tool of the same name", () => {
    const override: ToolDefinition = { ...getOrder, description: "case version", fixtures: { default: "case" } };
    const tools = exposedTools([getOrder, refund], { toolDefinitions: [override] });
    expect(tools).toHaveLength(2);
    expect(tools[0].description).toBe("case version");
  });

  it("reports names in content.tools that match no tool", () => {
    expect(missingToolNames([getOrder], { tools: ["get_order", "cancel", "cancel"] })).toEqual(["cancel"]);
    expect(missingToolNames([getOrder], {})).toEqual([]);
  });
});

describe("fixtures", () => {
  it("returns the first byArguments entry whose values equal the call's arguments", () => {
    expect(fixtureResult(getOrder, { orderId: "order_456" })).toEqual({ status: "in transit" });
    expect(matchFixture(getOrder, { orderId: "order_123" })).toEqual({ result: { status: "delivered" }, source: "byArguments", index: 0 });
  });

  it("ignores extra arguments not named in `when`", () => {
    expect(fixtureResult(getOrder, { orderId: "order_123", verbose: true })).toEqual({ status: "delivered" });
  });

  it("falls back to the default", () => {
    expect(matchFixture(getOrder, { orderId: "nope" })).toEqual({ result: { error: "order not found" }, source: "default" });
  });

  it("compares nested values deeply (object key order ignored, array order kept)", () => {
    expect(fixtureResult(search, { filter: { price: { max: 10 }, tags: ["a", "b"] } })).toEqual(["nested-hit"]);
    expect(fixtureResult(search, { filter: { price: { max: 10 }, tags: ["b", "a"] } })).toEqual(["catch-all"]);
    expect(fixtureResult(search, { q: "shoes" })).toEqual(["shoe-1"]);
  });

  it("requires every `when` value to match", () => {
    const t: ToolDefinition = {
      name: "flight",
      description: "",
      inputSchema: {},
      fixtures: { byArguments: [{ when: { from: "BER", to: "LIS" }, result: "BER-LIS" }], default: "other route" },
    };
    expect(fixtureResult(t, { from: "BER", to: "LIS" })).toBe("BER-LIS");
    expect(fixtureResult(t, { from: "BER", to: "OPO" })).toBe("other route");
    expect(fixtureResult(t, { from: "BER" })).toBe("other route");
  });

  it("does not coerce types", () => {
    const t: ToolDefinition = { name: "n", description: "", inputSchema: {}, fixtures: { byArguments: [{ when: { id: 1 }, result: "one" }] } };
    expect(fixtureResult(t, { id: 1 })).toBe("one");
    expect(fixtureResult(t, { id: "1" })).toEqual({ error: 'no fixture for tool n with arguments {"id":"1"}' });
  });

  it("parses JSON-string arguments", () => {
    expect(fixtureResult(getOrder, '{"orderId":"order_123"}')).toEqual({ status: "delivered" });
  });

  it("returns an error result naming the tool and arguments when nothing matches and there is no default", () => {
    expect(fixtureResult(refund, { orderId: "o-9" })).toEqual({ error: 'no fixture for tool refund with arguments {"orderId":"o-9"}' });
    expect(matchFixture(refund, {}).source).toBe("none");
  });

  it("treats an explicit null default as a fixture", () => {
    const t: ToolDefinition = { name: "n", description: "", inputSchema: {}, fixtures: { default: null } };
    expect(matchFixture(t, {})).toEqual({ result: null, source: "default" });
  });
});

describe("jsonEqual", () => {
  it("compares JSON values structurally", () => {
    expect(jsonEqual({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toBe(true);
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
  });
});

describe("toProviderJsonSchema", () => {
  it("maps BFCL type names and forces an object top level", () => {
    const schema = toProviderJsonSchema({
      type: "dict",
      properties: {
        amount: { type: "float" },
        point: { type: "tuple", items: { type: "integer" } },
        options: { type: "dict", properties: { anything: { type: "any", description: "x" } } },
      },
      required: ["amount"],
    });
    expect(schema).toEqual({
      type: "object",
      properties: {
        amount: { type: "number" },
        point: { type: "array", items: { type: "integer" } },
        options: { type: "object", properties: { anything: { description: "x" } } },
      },
      required: ["amount"],
    });
  });

  it("adds type and properties to an empty schema and leaves the input unchanged", () => {
    const input = {};
    expect(toProviderJsonSchema(input)).toEqual({ type: "object", properties: {} });
    expect(input).toEqual({});
  });
});

describe("toAiSdkTools", () => {
  it("builds tools whose execute returns the fixture result and reports it", async () => {
    const events: unknown[] = [];
    const set = toAiSdkTools([getOrder, refund], (e) => events.push(e));
    expect(Object.keys(set)).toEqual(["get_order", "refund"]);
    expect(set.get_order.description).toBe("Look up an order");
    const out = await set.get_order.execute!({ orderId: "order_123" }, { toolCallId: "c1", messages: [] });
    expect(out).toEqual({ status: "delivered" });
    const missing = await set.refund.execute!({ orderId: "x" }, { toolCallId: "c2", messages: [] });
    expect(missing).toEqual({ error: 'no fixture for tool refund with arguments {"orderId":"x"}' });
    expect(events).toEqual([
      { toolCallId: "c1", toolName: "get_order", input: { orderId: "order_123" }, output: { status: "delivered" }, source: "byArguments" },
      { toolCallId: "c2", toolName: "refund", input: { orderId: "x" }, output: missing, source: "none" },
    ]);
  });
});
