import { describe, expect, it } from "vitest";
import { diffPromptRevisions } from "./diff";
import { variablesMissingFromCases } from "./variables";

const tool = (name: string, description = "d") => ({ name, description, inputSchema: { type: "object" } });

describe("diffPromptRevisions", () => {
  it("diffs the template word by word, and lists changed settings and tools", () => {
    const d = diffPromptRevisions(
      {
        systemPrompt: "Be brief. Quote the policy.",
        modelSettings: { temperature: 0, maxOutputTokens: 400 },
        tools: [tool("get_order"), tool("lookup_policy")],
      },
      {
        systemPrompt: "Be brief. Check the refunds policy first.",
        modelSettings: { maxOutputTokens: 200, temperature: 0, stopSequences: ["END"] },
        tools: [tool("get_order", "Look up an order"), tool("escalate")],
      },
    );
    expect(d.template.filter((p) => p.kind !== "same").map((p) => [p.kind, p.text])).toEqual([
      ["removed", "Quote"],
      ["added", "Check"],
      ["added", "refunds "],
      ["added", " first"],
    ]);
    expect(
      d.template
        .filter((p) => p.kind !== "added")
        .map((p) => p.text)
        .join(""),
    ).toBe("Be brief. Quote the policy.");
    expect(
      d.template
        .filter((p) => p.kind !== "removed")
        .map((p) => p.text)
        .join(""),
    ).toBe("Be brief. Check the refunds policy first.");
    expect(d.settings).toEqual([
      { key: "maxOutputTokens", from: 400, to: 200 },
      { key: "stopSequences", from: undefined, to: ["END"] },
    ]);
    expect(d.tools).toEqual([
      { name: "get_order", change: "changed", fields: ["description"] },
      { name: "lookup_policy", change: "removed", fields: [] },
      { name: "escalate", change: "added", fields: [] },
    ]);
    expect(d.same).toBe(false);
  });
  it("says when two revisions are the same (key order does not matter)", () => {
    const a = { systemPrompt: "x", modelSettings: { temperature: 0, maxOutputTokens: 1 }, tools: [] };
    expect(diffPromptRevisions(a, { ...a, modelSettings: { maxOutputTokens: 1, temperature: 0 } })).toMatchObject({ same: true, settings: [], tools: [] });
  });
});

describe("variablesMissingFromCases", () => {
  it("lists each template variable some active cases lack, marking the ones this edit introduces", () => {
    const cases = [
      { caseKey: "a", variables: [{ name: "shop_name" }] },
      { caseKey: "b", variables: [{ name: "shop_name" }, { name: "tier" }] },
      { caseKey: "c", variables: [] },
    ];
    expect(variablesMissingFromCases("{{shop_name}} for {{tier}} customers", "{{shop_name}}", cases)).toEqual([
      { name: "shop_name", introduced: false, caseCount: 1, caseKeys: ["c"] },
      { name: "tier", introduced: true, caseCount: 2, caseKeys: ["a", "c"] },
    ]);
    expect(variablesMissingFromCases("no variables", "{{x}}", cases)).toEqual([]);
  });
});

describe("templateSegments", () => {
  it("splits text and placeholders so the page can highlight variables", async () => {
    const { templateSegments } = await import("../runtime/template");
    expect(templateSegments("Hi {{ name }}, see {{#if x}} and {{order.id}}")).toEqual([
      { text: "Hi " },
      { text: "{{ name }}", variable: "name" },
      { text: ", see {{#if x}} and " },
      { text: "{{order.id}}", variable: "order.id" },
    ]);
    expect(templateSegments("")).toEqual([]);
  });
});
