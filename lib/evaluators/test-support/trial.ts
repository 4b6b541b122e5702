/** Helpers for evaluator tests: build trials tersely. */
import type { EvaluationTrial } from "../types";

/** A trial with the given output and optional fields. */
export function trial(output: string | null, extra: Partial<EvaluationTrial> = {}): EvaluationTrial {
  return { output, ...extra };
}

/** A trial whose case expected result is `expected` (for specs without their own `expected`). */
export function trialWithExpected(output: string, expected: string): EvaluationTrial {
  return { output, context: { expected } };
}

/** A trial with ai SDK-shaped tool calls built from [name, input] pairs. */
export function trialWithCalls(calls: Array<[string, unknown]>, output = ""): EvaluationTrial {
  return { output, toolCalls: calls.map(([toolName, input], i) => ({ toolCallId: `c${i}`, toolName, input })) };
}
