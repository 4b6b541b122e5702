import { describe, expect, it } from "vitest";
import { caseContentOf, libraryContentHash, planPrompts } from "./library-content";
import { releaseCase } from "./testing";
import type { ReleaseCase, ReleaseTool } from "./types";

function rc(id: string, evalId: string, more: Partial<ReleaseCase> = {}): ReleaseCase {
  return releaseCase({ id, evalId, systemPrompt: "S", source: { module: "evals/x.ts", file: "evals/x.ts", index: 0 }, ...more });
}
const tools: ReleaseTool[] = [
  { name: "lookup_policy", module: "t.ts", description: "Look up.", inputSchema: { type: "object" }, executeSha256: "x" },
  { name: "get_order", module: "t.ts", description: "Order.", inputSchema: { type: "object", properties: {} }, executeSha256: "y" },
];

describe("planPrompts", () => {
  it("targets one prompt per eval id with its system prompt and tool schemas (no fixtures)", () => {
    const { prompts, promptOf } = planPrompts({
      tools,
      cases: [rc("a", "lookup", { tools: ["lookup_policy"] }), rc("b", "refund", { tools: ["get_order"], systemPrompt: null }), rc("c", "lookup")],
    });
    expect(prompts).toEqual([
      { name: "lookup", systemPrompt: "S", caseIds: ["a", "c"], tools: [{ name: "lookup_policy", description: "Look up.", inputSchema: { type: "object" } }] },
      {
        name: "refund",
        systemPrompt: "",
        caseIds: ["b"],
        tools: [{ name: "get_order", description: "Order.", inputSchema: { type: "object", properties: {} } }],
      },
    ]);
    expect(promptOf.get("b")).toBe("refund");
  });

  it("puts every case into --prompt NAME", () => {
    const { prompts } = planPrompts({ tools, cases: [rc("a", "lookup"), rc("b", "refund")] }, "support");
    expect(prompts.map((p) => [p.name, p.caseIds])).toEqual([["support", ["a", "b"]]]);
  });
});

describe("caseContentOf", () => {
  it("maps a case to library content: checks as evaluators, labels as tags, metadata and a differing system prompt as context", () => {
    const c = rc("a", "e", {
      prompt: "Where is my order?",
      expected: "Delivered",
      title: "Order status",
      description: "Needs a lookup",
      tools: ["get_order"],
      evaluators: [{ kind: "contains" }],
      criteria: "Polite",
      expectedToolCalls: ["get_order"],
      allowAdditionalToolCalls: false,
      data: { orderId: "o1" },
      labels: ["tools"],
      metadata: { tier: 2, owner: "qa" },
      systemPrompt: "Other",
    });
    expect(caseContentOf(c, "S")).toEqual({
      input: "Where is my order?",
      expected: "Delivered",
      notes: "Order status\nNeeds a lookup",
      history: [],
      variables: [],
      context: [
        { name: "system_prompt", value: "Other" },
        { name: "metadata.tier", value: "2" },
        { name: "metadata.owner", value: "qa" },
      ],
      tags: ["tools"],
      recordedOutputs: {},
      evaluators: [
        { kind: "contains" },
        { kind: "judge", criterion: { rule: "Polite" }, mode: "binary" },
        { kind: "expected_tool_calls", names: ["get_order"], allowAdditional: false },
      ],
      data: { orderId: "o1" },
      extra: {},
      tools: ["get_order"],
    });
    expect(caseContentOf(rc("b", "e"), "S").context).toEqual([]);
  });

  it("notes a code evaluator (runs only from the CLI) with its hash, so changing it changes the content", () => {
    const fn = { module: "evals/r.ts", exportPath: "evaluate", source: "evaluate(){}", sha256: "abcdef0123456789".repeat(4), files: ["evals/r.ts"] };
    const a = caseContentOf(rc("a", "e", { evaluatorFunction: fn, hasSetup: true }), "S");
    expect(a.notes).toBe(
      "code evaluator: evals/r.ts evaluate (sha256 abcdef012345) runs only from the CLI (benchwork run); it is not a check of this case in the app\nsetup/teardown in evals/x.ts run only from the CLI",
    );
    expect(a.evaluators).toEqual([]);
    const b = caseContentOf(rc("a", "e", { evaluatorFunction: { ...fn, sha256: "f".repeat(64) }, hasSetup: true }), "S");
    expect(libraryContentHash(a)).not.toBe(libraryContentHash(b));
  });
});
