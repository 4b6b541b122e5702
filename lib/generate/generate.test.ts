import { describe, expect, it } from "vitest";
import { APICallError } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { textResult } from "@/lib/runtime/test-support/mock-model";
import { scriptedGenerator as scripted } from "./test-support/scripted-generator";
import { generateProposals } from "./generate";
import { GenerateError } from "./structured";
import type { GenerateInput } from "./types";

const input = (over: Partial<GenerateInput> = {}): GenerateInput => ({
  prompt: {
    name: "support",
    revisionId: 7,
    revisionNumber: 2,
    systemPrompt: "You help customers of {{shop}}. Answer in {{language}}.",
    tools: [{ name: "lookup_order", description: "Finds an order", inputSchema: { type: "object", properties: { id: { type: "string" } } } }],
  },
  criteria: 3,
  scenarios: 0,
  existingRules: ["Never promise a refund."],
  existingInputs: ["Where is my order 123?"],
  ...over,
});

const deps = (model: MockLanguageModelV3) => ({ model, modelLabel: "mock:gen-mock", runId: "run-1" });

const criterion = (rule: string, extra: Record<string, unknown> = {}) => ({
  rule,
  passes: `does: ${rule}`,
  fails: `does not: ${rule}`,
  priority: "primary",
  check: "judge",
  evaluator: null,
  ...extra,
});

describe("generateProposals: criteria", () => {
  it("keeps valid criteria with provenance, validates static evaluators and drops near-duplicates with the count", async () => {
    const { model, calls } = scripted({
      criteria: JSON.stringify({
        criteria: [
          criterion("Answer in the customer's language", { check: "static", evaluator: { kind: "regex", pattern: "[" } }),
          criterion("Mention the order number", { check: "static", evaluator: { kind: "contains", expected: "order" } }),
          criterion("never promise a refund!"),
          criterion("Mention the order number."),
          criterion("Stay polite when insulted", { check: "unobservable", reason: "needs the customer's mood" }),
        ],
      }),
    });
    const r = await generateProposals(input({ criteria: 5 }), deps(model));
    expect(calls.map((c) => c.name)).toEqual(["criteria"]);
    expect(calls[0].prompt).toContain("Never promise a refund.");
    // The schema is stated in the prompt for servers that do not take it as response format.
    expect(calls[0].prompt).toContain("The answer's JSON Schema:");
    expect(calls[0].prompt).toContain('\\"priority\\":{\\"type\\":\\"string\\",\\"enum\\":[\\"primary\\",\\"secondary\\"]');
    expect(r).toMatchObject({ runId: "run-1", model: "mock:gen-mock", generatorRevision: "gen-1", promptRevisionId: 7 });
    expect(r.criteria.map((c) => [c.rule, c.check])).toEqual([
      ["Answer in the customer's language", { kind: "judge", note: expect.stringContaining("the proposed evaluator was invalid (pattern") }],
      ["Mention the order number", { kind: "static", evaluator: { kind: "contains", expected: "order" } }],
      ["Stay polite when insulted", { kind: "unobservable", reason: "needs the customer's mood" }],
    ]);
    expect(r.dropped).toEqual([
      { reason: "duplicate", kind: "criterion", text: "never promise a refund!", duplicateOf: "Never promise a refund.", of: "existing", similarity: 1 },
      { reason: "duplicate", kind: "criterion", text: "Mention the order number.", duplicateOf: "Mention the order number", of: "batch", similarity: 1 },
    ]);
    expect(r.diversity.criteria).toBeGreaterThan(0.5);
    expect(r.usage).toEqual({ inputTokens: 100, outputTokens: 50, calls: 1 });
  });

  it("keeps the items that validate from a partial batch and names the dropped ones", async () => {
    const { model } = scripted({
      criteria: JSON.stringify({ criteria: [criterion("Cite the policy"), { rule: "No priority", passes: "x", fails: "y", check: "judge" }, criterion("  ")] }),
    });
    const r = await generateProposals(input(), deps(model));
    expect(r.criteria.map((c) => c.rule)).toEqual(["Cite the policy"]);
    expect(r.dropped).toEqual([
      { reason: "invalid", step: "criteria", item: 2, problem: expect.stringContaining("priority") },
      { reason: "invalid", step: "criteria", item: 3, problem: expect.stringContaining("rule: must not be empty") },
    ]);
  });

  it.each([
    ["not JSON", "Sure! Here are some criteria: be nice.", "not_json", /criteria: the model's answer is not JSON: "Sure!/],
    ["the wrong shape", JSON.stringify({ rules: [] }), "wrong_shape", /criteria: the model's answer has no "criteria" list/],
    ["an empty list", JSON.stringify({ criteria: [] }), "empty", /criteria: the model proposed nothing/],
    ["empty text", "", "empty", /criteria: the model's answer was empty/],
    ["no valid item", JSON.stringify({ criteria: [{ rule: 1 }] }), "wrong_shape", /none of the 1 proposed items is valid; item 1: rule/],
  ])("fails with a clear error when the answer is %s", async (_what, text, code, message) => {
    const { model } = scripted({ criteria: text });
    const e = await generateProposals(input(), deps(model)).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(GenerateError);
    expect((e as GenerateError).code).toBe(code);
    expect((e as GenerateError).message).toMatch(message);
  });

  it("asks again without structured output when the server rejects it, and reads the JSON from the text", async () => {
    const formats: string[] = [];
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        formats.push(options.responseFormat?.type ?? "none");
        if (options.responseFormat?.type === "json")
          throw new APICallError({
            message: "response_format is not supported",
            url: "http://127.0.0.1/v1/chat/completions",
            requestBodyValues: {},
            statusCode: 400,
          });
        return textResult("Here you are:\n```json\n" + JSON.stringify({ criteria: [criterion("Cite the policy")] }) + "\n```", 10, 20);
      },
    });
    const r = await generateProposals(input({ criteria: 1 }), deps(model));
    expect(formats).toEqual(["json", "none"]);
    expect(r.criteria.map((c) => c.rule)).toEqual(["Cite the policy"]);
    expect(r.usage).toEqual({ inputTokens: 10, outputTokens: 20, calls: 1 });
  });

  it("refuses counts outside the allowed range before calling the model", async () => {
    const { model, calls } = scripted({});
    await expect(generateProposals(input({ criteria: 51 }), deps(model))).rejects.toThrow("criteria must be a whole number from 0 to 50 (got 51)");
    await expect(generateProposals(input({ criteria: 0, scenarios: 0 }), deps(model))).rejects.toThrow("at least one");
    expect(calls).toEqual([]);
  });
});

const scenario = (input: string, extra: Record<string, unknown> = {}) => ({
  input,
  expected: `helps with: ${input}`,
  variables: [
    { name: "shop", value: "Kettle Co" },
    { name: "language", value: "English" },
  ],
  tags: [],
  covers: "orders",
  edgeCase: false,
  ...extra,
});

describe("generateProposals: scenarios", () => {
  it("draws personas first, then asks each persona for its share, and records why each was proposed", async () => {
    const { model, calls } = scripted({
      concepts: JSON.stringify({
        concepts: [{ name: "orders", description: "order status" }],
        personas: [
          { name: "Busy parent", description: "short messages" },
          { name: "Angry customer", description: "shouts" },
        ],
      }),
      scenarios: (prompt) =>
        prompt.includes("Busy parent")
          ? JSON.stringify({
              scenarios: [
                scenario("Kettle not here yet, order 55"),
                scenario("where is my order 123??"),
                scenario("Cancel order 9", { edgeCase: true, tags: ["tool:lookup_order"] }),
              ],
            })
          : JSON.stringify({ scenarios: [scenario("THIS IS THE THIRD TIME I ASK"), scenario("Refund now", { variables: [{ name: "shop", value: "x" }] })] }),
    });
    const r = await generateProposals(input({ criteria: 0, scenarios: 3 }), deps(model));
    expect(calls.map((c) => c.name)).toEqual(["concepts", "scenarios", "scenarios"]);
    // 3 over 2 personas: the first asks for 2, the second for 1.
    expect(calls[1].prompt).toContain("Write 2 test scenarios");
    expect(calls[2].prompt).toContain("Write 1 test scenarios");
    expect(r.personas.map((p) => p.name)).toEqual(["Busy parent", "Angry customer"]);
    expect(r.scenarios).toEqual([
      {
        input: "Kettle not here yet, order 55",
        expected: "helps with: Kettle not here yet, order 55",
        variables: scenario("").variables,
        tags: [],
        concept: "orders",
        persona: "Busy parent",
        edgeCase: false,
      },
      {
        input: "Cancel order 9",
        expected: "helps with: Cancel order 9",
        variables: scenario("").variables,
        tags: ["tool:lookup_order", "edge-case"],
        concept: "orders",
        persona: "Busy parent",
        edgeCase: true,
      },
      {
        input: "THIS IS THE THIRD TIME I ASK",
        expected: "helps with: THIS IS THE THIRD TIME I ASK",
        variables: scenario("").variables,
        tags: [],
        concept: "orders",
        persona: "Angry customer",
        edgeCase: false,
      },
    ]);
    expect(r.dropped).toEqual([
      { reason: "invalid", step: 'scenarios for persona "Angry customer"', item: 2, problem: "variables: no value for {{language}}" },
      { reason: "duplicate", kind: "scenario", text: "where is my order 123??", duplicateOf: "Where is my order 123?", of: "existing", similarity: 1 },
    ]);
    expect(r.diversity.scenarios).not.toBeNull();
    expect(r.usage.calls).toBe(3);
  });

  it("fails naming the first problem when no scenario is valid", async () => {
    const { model } = scripted({
      concepts: JSON.stringify({ concepts: [], personas: [{ name: "Solo", description: "one" }] }),
      scenarios: JSON.stringify({ scenarios: [scenario("Hi", { variables: [] })] }),
    });
    await expect(generateProposals(input({ criteria: 0, scenarios: 1 }), deps(model))).rejects.toThrow(
      'scenarios: no proposed scenario is valid; scenarios for persona "Solo" item 1: variables: no value for {{shop}}, {{language}}.',
    );
  });

  it("drops a scenario with runaway lists (more than 50 variables or 20 tags)", async () => {
    const many = Array.from({ length: 51 }, (_, i) => ({ name: `v${i}`, value: "x" }));
    const { model } = scripted({
      concepts: JSON.stringify({ concepts: [], personas: [{ name: "Solo", description: "one" }] }),
      scenarios: JSON.stringify({
        scenarios: [
          scenario("Fine one"),
          scenario("Too many variables", { variables: [...scenario("").variables, ...many] }),
          scenario("Too many tags", { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }),
        ],
      }),
    });
    const r = await generateProposals(input({ criteria: 0, scenarios: 3 }), deps(model));
    expect(r.scenarios.map((s) => s.input)).toEqual(["Fine one"]);
    expect(r.dropped).toEqual([
      { reason: "invalid", step: 'scenarios for persona "Solo"', item: 2, problem: expect.stringContaining("variables") },
      { reason: "invalid", step: 'scenarios for persona "Solo"', item: 3, problem: expect.stringContaining("tags") },
    ]);
  });

  it("fails when the personas answer has the wrong shape, naming the step", async () => {
    const { model } = scripted({ concepts: JSON.stringify({ concepts: "orders" }) });
    await expect(generateProposals(input({ criteria: 0, scenarios: 2 }), deps(model))).rejects.toThrow(
      /concepts and personas: the model's answer has the wrong shape: concepts/,
    );
  });

  it("reports a cancelled call as cancelled", async () => {
    const ac = new AbortController();
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        ac.abort();
        throw new DOMException("aborted", "AbortError");
      },
    });
    const e = await generateProposals(input(), { ...deps(model), abortSignal: ac.signal }).catch((x: unknown) => x);
    expect((e as GenerateError).code).toBe("cancelled");
  });
});
