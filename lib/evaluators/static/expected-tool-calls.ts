/**
 * `expected_tool_calls`: every named tool must be called at least once (order and arguments do not
 * matter); with `allowAdditional: false` no other tool may be called. Same rule as the
 * eval-suite reference in shared/seeds/004 (`expected_tool_calls` / `allow_additional_tool_calls`).
 * An empty list with `allowAdditional: false` means no tool may be called at all (an empty tuple with
 * additional calls forbidden in the reference); an empty list that allows additional calls checks
 * nothing and is a configuration error.
 */
import type { ExpectedToolCallsSpec } from "../spec";
import { SPEC_DEFAULTS } from "../spec";
import { configError, failed, passed } from "../result";
import { normalizedCallsOf } from "../tool-calls/normalize";
import type { FieldProblem, StaticRunner } from "./common";

const KIND = "expected_tool_calls";

/** Configuration problems: no names while additional calls are allowed, or an empty name. */
export function checkExpectedToolCalls(spec: ExpectedToolCallsSpec): FieldProblem[] {
  if (spec.names.length === 0 && (spec.allowAdditional ?? SPEC_DEFAULTS.allowAdditional))
    return [
      { field: "names", message: "names is empty: list the tools that must be called (or set allowAdditional to false to require that no tool is called)" },
    ];
  const problems: FieldProblem[] = [];
  spec.names.forEach((n, i) => {
    if (n.trim() === "") problems.push({ field: `names[${i}]`, message: "tool name is empty" });
  });
  return problems;
}

/** Compiles an `expected_tool_calls` spec. Never throws. */
export function compileExpectedToolCalls(spec: ExpectedToolCallsSpec): StaticRunner {
  const required = [...new Set(spec.names)];
  const allowed = new Set(required);
  const allowAdditional = spec.allowAdditional ?? SPEC_DEFAULTS.allowAdditional;
  return (trial) => {
    if (required.length === 0 && allowAdditional) return configError(KIND, "names is empty");
    const calls = normalizedCallsOf(trial);
    const called = new Set<string>();
    for (const c of calls) called.add(c.toolName);
    const missing = required.filter((n) => !called.has(n));
    const extra = allowAdditional ? [] : [...called].filter((n) => !allowed.has(n));
    const sequence = calls.length === 0 ? "no tool was called" : `tools called: ${calls.map((c) => c.toolName || "(no name)").join(", ")}`;
    const details = { missing, unexpected: extra, called: calls.map((c) => c.toolName) };
    if (missing.length === 0 && extra.length === 0)
      return passed(KIND, required.length ? `Every expected tool was called (${required.join(", ")}).` : "No tool was called, as expected.", details);
    const parts: string[] = [];
    if (missing.length) parts.push(`not called: ${missing.join(", ")}`);
    if (extra.length) parts.push(`called but not allowed: ${extra.join(", ")}`);
    return failed(KIND, `Expected tool calls not met — ${parts.join("; ")} (${sequence}).`, details);
  };
}
