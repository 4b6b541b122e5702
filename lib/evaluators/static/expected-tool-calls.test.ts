import { describe, expect, it } from "vitest";
import { runStaticCheck } from "../registry";
import { trialWithCalls } from "../test-support/trial";

describe("expected_tool_calls", () => {
  it.each([
    ["all named tools fired", { names: ["search", "get_order"] }, ["get_order", "search"], "passed", "Every expected tool was called (search, get_order)."],
    ["one missing", { names: ["search", "get_order"] }, ["search"], "failed", "not called: get_order (tools called: search)"],
    ["none fired", { names: ["search"] }, [], "failed", "not called: search (no tool was called)"],
    ["additional allowed by default", { names: ["search"] }, ["search", "log"], "passed", "Every expected tool was called"],
    ["additional forbidden", { names: ["search"], allowAdditional: false }, ["search", "log"], "failed", "called but not allowed: log"],
    ["repeats are fine", { names: ["search"], allowAdditional: false }, ["search", "search"], "passed", "Every expected tool was called"],
    ["names are case-sensitive", { names: ["search"] }, ["Search"], "failed", "not called: search"],
  ] as const)("%s", (_name, spec, called, verdict, message) => {
    const r = runStaticCheck({ kind: "expected_tool_calls", ...spec }, trialWithCalls(called.map((n) => [n, {}])));
    expect(r.verdict).toBe(verdict);
    expect(r.message).toContain(message);
  });

  // The demo's "Calls no tool" check (db/seed/evaluators.ts) is this spec: it was a configuration error.
  it.each([
    ["no tool called", [], "passed", "No tool was called, as expected."],
    ["a tool called", ["get_order"], "failed", "called but not allowed: get_order"],
  ] as const)("an empty list with allowAdditional: false means no tool may be called: %s", (_name, called, verdict, message) => {
    const r = runStaticCheck({ kind: "expected_tool_calls", names: [], allowAdditional: false }, trialWithCalls(called.map((n) => [n, {}])));
    expect(r.verdict).toBe(verdict);
    expect(r.message).toContain(message);
  });

  it("an empty list is a configuration error", () => {
    const r = runStaticCheck({ kind: "expected_tool_calls", names: [] }, trialWithCalls([]));
    expect(r.verdict).toBe("error");
    expect(r.message).toContain("names is empty");
  });
});
