import { describe, expect, it } from "vitest";
import { runStaticCheck } from "../registry";
import { trial } from "../test-support/trial";

const orderSchema = {
  type: "object",
  properties: { orderId: { type: "string" }, eligible: { type: "boolean" } },
  required: ["orderId", "eligible"],
  additionalProperties: false,
};

describe("json", () => {
  it.each([
    ["object", {}, '{"a": 1}', "passed", "The output is valid JSON."],
    ["surrounding whitespace", {}, '\n {"a": 1} \n', "passed", "valid JSON"],
    ["array", {}, "[1, 2]", "passed", "valid JSON"],
    ["bare number", {}, "42", "passed", "valid JSON"],
    ["trailing comma", {}, '{"a": 1,}', "failed", "The output is not valid JSON:"],
    ["prose", {}, "Sure! Here it is.", "failed", "not valid JSON"],
    ["code fence not allowed by default", {}, '```json\n{"a":1}\n```', "failed", "set allowCodeFence: true"],
    ["code fence allowed", { allowCodeFence: true }, '```json\n{"a":1}\n```', "passed", "valid JSON"],
    ["schema match", { schema: orderSchema }, '{"orderId":"o1","eligible":true}', "passed", "matches the schema"],
    ["schema: wrong type", { schema: orderSchema }, '{"orderId":1,"eligible":true}', "failed", "at /orderId: must be string"],
    ["schema: missing property", { schema: orderSchema }, '{"orderId":"o1"}', "failed", "at (root): must have required property 'eligible'"],
    ["schema: extra property", { schema: orderSchema }, '{"orderId":"o1","eligible":true,"x":0}', "failed", 'must NOT have additional properties ("x")'],
    ["schema: enum", { schema: { enum: ["a", "b"] } }, '"c"', "failed", 'must be equal to one of the allowed values: ["a","b"]'],
    [
      "2020-12 schema",
      { schema: { $schema: "https://json-schema.org/draft/2020-12/schema", type: "array", prefixItems: [{ type: "number" }] } },
      '["x"]',
      "failed",
      "at /0: must be number",
    ],
  ] as const)("%s", (_name, spec, output, verdict, message) => {
    const r = runStaticCheck({ kind: "json", ...spec }, trial(output));
    expect(r.verdict).toBe(verdict);
    expect(r.message).toContain(message);
  });

  it("an invalid schema is a configuration error", () => {
    const r = runStaticCheck({ kind: "json", schema: { type: "nonsense" } }, trial("{}"));
    expect(r.verdict).toBe("error");
    expect(r.message).toContain("evaluator configuration error: schema: schema is not a valid JSON Schema");
  });
});
