import { describe, expect, it } from "vitest";
import { oversizedFields, promptEditSchema } from "./edit";

const base = {
  promptId: "3",
  baseRevisionId: "7",
  systemPrompt: "Hi {{name}}",
  temperature: "",
  maxOutputTokens: "",
  topP: "",
  stopSequences: "",
  providerOptions: "",
  tools: "[]",
  message: "why",
};
const issues = (input: object) => {
  const r = promptEditSchema.safeParse({ ...base, ...input });
  expect(r.success).toBe(false);
  return r.error!.issues.map((i) => [i.path.join("."), i.message]);
};

describe("promptEditSchema", () => {
  it("turns the form's text fields into a revision's content", () => {
    const r = promptEditSchema.parse({
      ...base,
      temperature: "0.2",
      maxOutputTokens: "400",
      stopSequences: "END\n\n###\n",
      providerOptions: '{"openai": {"reasoningEffort": "low"}}',
      tools: '[{"name": "get_order", "description": "d", "inputSchema": {"type": "object"}}]',
    });
    expect(r).toEqual({
      promptId: 3,
      baseRevisionId: 7,
      systemPrompt: "Hi {{name}}",
      modelSettings: { temperature: 0.2, maxOutputTokens: 400, stopSequences: ["END", "###"], providerOptions: { openai: { reasoningEffort: "low" } } },
      tools: [{ name: "get_order", description: "d", inputSchema: { type: "object" } }],
      message: "why",
    });
  });
  it("names the field and the tool item in its refusals", () => {
    expect(issues({ message: "  " })).toEqual([["message", "Say why you made this change (a short message)."]]);
    expect(issues({ temperature: "5" })).toEqual([["temperature", "Temperature must be a number from 0 to 2."]]);
    expect(issues({ tools: "[{" })[0][0]).toBe("tools");
    expect(issues({ tools: "[{" })[0][1]).toMatch(/^Tools is not valid JSON/);
    expect(
      issues({
        tools: '[{"name": "a", "description": "", "inputSchema": {"type": "object"}}, {"name": "a", "description": "", "inputSchema": {"type": "object"}}]',
      }),
    ).toEqual([["tools", "Tool 2 (a): another tool has the same name."]]);
    expect(issues({ tools: '[{"name": "get order", "description": "", "inputSchema": {}}]' })).toEqual([
      ["tools", 'Tool 1: name must be 1–64 letters, digits, _ or - (got "get order").'],
    ]);
    expect(issues({ providerOptions: "[1]" })[0][0]).toBe("providerOptions");
    expect(issues({ temperature: "warm" })).toEqual([["temperature", 'Temperature must be a number (got "warm").']]);
  });
  it("reports every problem at once (a blank message does not hide a bad temperature or tool)", () => {
    expect(issues({ message: "", temperature: "7", tools: '[{"name": "x y"}]' }).map(([p]) => p)).toEqual(["temperature", "tools", "message"]);
  });
});

describe("oversizedFields", () => {
  it("names the fields over their limit with the server's own message, before anything is sent", () => {
    const values = { ...base, systemPrompt: "x".repeat(100_001), tools: "[]", message: "m".repeat(1_001) };
    const before = oversizedFields(values);
    expect(before).toEqual({
      systemPrompt: "The system prompt is too long: the limit is 100,000 characters.",
      message: "The message is too long: the limit is 1,000 characters.",
    });
    // The same words as the server's refusal of the same input.
    expect(Object.fromEntries(issues(values).filter(([path]) => path in before))).toEqual(before);
    expect(oversizedFields({ ...base, systemPrompt: "x".repeat(100_000) })).toEqual({});
  });
});
