/**
 * Plumbing shared by the static evaluators: the compiled-runner type, field problems and the
 * lookup of an expected value that may come from the case instead of the spec.
 */
import type { CheckResult, EvaluationTrial } from "../types";

/** A compiled static evaluator: a pure, synchronous function of the trial. */
export type StaticRunner = (trial: EvaluationTrial) => CheckResult;

/** A configuration problem inside one spec (the validator adds the spec index). */
export interface FieldProblem {
  /** Dotted path inside the spec, e.g. `expected` or `alternatives[0].calls[1].toolName`. */
  field: string;
  message: string;
}

/** What the validator knows about the case a spec belongs to. */
export interface SpecContext {
  /**
   * The case's expected result. Specs such as `{ kind: "exact" }` without `expected` compare with it.
   * `undefined` means "unknown" (validated as missing).
   */
  expected?: string;
}

/** The trial's output as a string (null/undefined → ""). */
export function outputOf(trial: EvaluationTrial): string {
  const o = trial.output;
  return typeof o === "string" ? o : o == null ? "" : String(o);
}

/**
 * The expected value of a spec: its own `expected` when set, otherwise the case's expected result
 * from the trial context; `source` says which, for messages.
 */
export function expectedOf(specExpected: string | undefined, trial: EvaluationTrial): { value: string; source: "spec" | "case" } {
  if (specExpected !== undefined) return { value: specExpected, source: "spec" };
  return { value: trial.context?.expected ?? "", source: "case" };
}

/** Problem for an empty expected value (spec or case), naming the field. */
export function emptyExpectedProblem(specExpected: string | undefined, context: SpecContext | undefined): FieldProblem | null {
  const value = specExpected ?? context?.expected;
  if (value === undefined) return { field: "expected", message: "expected is missing: set it on the evaluator or give the case an expected result" };
  if (value.trim() === "")
    return specExpected !== undefined
      ? { field: "expected", message: "expected is empty: give the text the output must match" }
      : { field: "expected", message: "expected is not set and the case's expected result is empty" };
  return null;
}
