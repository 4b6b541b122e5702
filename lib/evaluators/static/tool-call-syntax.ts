/**
 * `tool_call_syntax`: the observed tool calls must match at least one declared alternative
 * (matching rules in tool-calls/match.ts). The message names the first unmet expectation of the
 * closest alternative and lists the calls that were made.
 */
import type { ToolCallSyntaxSpec } from "../spec";
import { configError, failed, passed } from "../result";
import { compileToolCallSpec, matchAlternative, observedLabel, prepareCall, type AlternativeOutcome } from "../tool-calls/match";
import { normalizedCallsOf } from "../tool-calls/normalize";
import type { FieldProblem, StaticRunner } from "./common";

const KIND = "tool_call_syntax";
/** Observed calls listed in a failure message before "…". */
const LISTED_CALLS = 6;

/** Configuration problems of a `tool_call_syntax` spec (beyond its zod shape). */
export function checkToolCallSyntax(spec: ToolCallSyntaxSpec): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (spec.alternatives.length === 0) problems.push({ field: "alternatives", message: "alternatives is empty: add at least one set of expected calls" });
  spec.alternatives.forEach((alt, a) => {
    const base = `alternatives[${a}]`;
    if (alt.calls.length === 0 && (alt.extraCalls ?? "forbid") === "allow")
      problems.push({
        field: `${base}.calls`,
        message:
          'this alternative expects no calls and allows extra calls, so it matches every trial; list calls or set extraCalls to "forbid" (meaning: no tool may be called)',
      });
    alt.calls.forEach((call, c) => {
      const cb = `${base}.calls[${c}]`;
      if (call.toolName.trim() === "") problems.push({ field: `${cb}.toolName`, message: "toolName is empty" });
      else if (call.toolName !== call.toolName.trim())
        problems.push({ field: `${cb}.toolName`, message: `toolName "${call.toolName}" has leading or trailing spaces (names are compared exactly)` });
      for (const [name, rule] of Object.entries(call.arguments ?? {})) {
        const ab = `${cb}.arguments.${name}`;
        if (name === "") problems.push({ field: `${cb}.arguments`, message: "an argument has an empty name" });
        if (rule.acceptedValues !== undefined && rule.acceptedValues.length === 0)
          problems.push({
            field: `${ab}.acceptedValues`,
            message: "acceptedValues is empty, so no value can match: list the accepted values, or remove the field to accept any value",
          });
      }
    });
  });
  return problems;
}

/** Compiles a `tool_call_syntax` spec (defaults applied once). Assumes a valid spec; never throws. */
export function compileToolCallSyntax(spec: ToolCallSyntaxSpec): StaticRunner {
  const alternatives = compileToolCallSpec(spec);
  const n = alternatives.length;
  return (trial) => {
    if (n === 0) return configError(KIND, "alternatives is empty");
    const raw = normalizedCallsOf(trial);
    const observed = raw.map(prepareCall);
    let best: AlternativeOutcome | null = null;
    let bestIndex = 0;
    for (let a = 0; a < n; a++) {
      const outcome = matchAlternative(alternatives[a], observed);
      if (outcome.ok) {
        const which = n > 1 ? ` (alternative ${a + 1} of ${n})` : "";
        const count = alternatives[a].calls.length;
        return passed(
          KIND,
          count === 0 ? `No tool was called, as expected${which}.` : `The tool calls match the expected ${count} call${count === 1 ? "" : "s"}${which}.`,
          { alternative: a, assignment: outcome.assignment },
        );
      }
      if (!best || outcome.matched > best.matched) {
        best = outcome;
        bestIndex = a;
      }
    }
    const head = n > 1 ? `None of the ${n} alternatives matched. Closest is alternative ${bestIndex + 1}: ` : "The tool calls do not match: ";
    const listed = observed
      .slice(0, LISTED_CALLS)
      .map((c, i) => observedLabel(c, i, raw[i]))
      .join("\n  ");
    const calls =
      observed.length === 0
        ? "No tool calls were made."
        : `Observed calls:\n  ${listed}${observed.length > LISTED_CALLS ? `\n  … ${observed.length - LISTED_CALLS} more` : ""}`;
    return failed(KIND, `${head}${best!.problem}\n${calls}`, {
      closestAlternative: bestIndex,
      matchedCalls: best!.matched,
      expectedCalls: alternatives[bestIndex].calls.length,
      observedCalls: observed.length,
    });
  };
}
