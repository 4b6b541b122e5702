/**
 * Validation of evaluator specs, run when a case (or criterion) is saved so configuration mistakes
 * are reported to the author — an empty expected value, an empty answer bank, a malformed
 * tool-call spec, an invalid regular expression or JSON Schema — instead of surfacing later as
 * model failures. If such a spec still reaches a bench, the registry reports it as verdict `error`.
 */
import { z } from "zod";
import { EVALUATOR_KINDS, evaluatorSpecSchema, type EvaluatorSpec } from "./spec";
import type { SpecProblem } from "./types";
import { LIMITS } from "../library/limits";
import type { FieldProblem, SpecContext } from "./static/common";
import { checkAnswerBank } from "./static/answer-bank";
import { checkContains } from "./static/contains";
import { checkExact } from "./static/exact";
import { checkExpectedToolCalls } from "./static/expected-tool-calls";
import { checkGsm8k } from "./static/gsm8k";
import { checkJson } from "./static/json";
import { checkRegex } from "./static/regex";
import { checkToolCallSyntax } from "./static/tool-call-syntax";

export type { SpecContext } from "./static/common";

/** Renders a zod path as `alternatives[0].calls[1].toolName`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) {
    if (typeof p === "number") out += `[${p}]`;
    else out += out === "" ? String(p) : `.${String(p)}`;
  }
  return out;
}

function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  return typeof v === "object" ? "an object" : typeof v;
}

/** Reads the value at a zod path inside `root` (for "got ..." in messages). */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const p of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

/** Turns zod issues into field problems with plain messages. */
function zodProblems(error: z.ZodError, input: unknown): FieldProblem[] {
  const out: FieldProblem[] = [];
  for (const issue of error.issues) {
    const field = formatPath(issue.path);
    const name = field || "spec";
    switch (issue.code) {
      case "unrecognized_keys":
        for (const key of issue.keys) {
          const f = formatPath([...issue.path, key]);
          out.push({ field: f, message: `unknown field "${key}"${field ? ` in ${field}` : ""}` });
        }
        break;
      case "invalid_type": {
        const got = valueAt(input, issue.path);
        out.push({
          field,
          message:
            got === undefined
              ? `${name} is required (${issue.expected})`
              : `${name} must be ${issue.expected === "array" ? "a list" : issue.expected === "object" ? "an object" : `a ${issue.expected}`} (got ${typeName(got)})`,
        });
        break;
      }
      case "invalid_value":
        out.push({
          field,
          message: `${name} must be ${issue.values.map((v) => JSON.stringify(v)).join(" or ")} (got ${JSON.stringify(valueAt(input, issue.path))})`,
        });
        break;
      default:
        out.push({ field, message: `${name}: ${issue.message}` });
    }
  }
  return out;
}

/** Parses one spec: the typed spec, or its problems (shape only). */
export function parseEvaluatorSpec(spec: unknown): { ok: true; spec: EvaluatorSpec } | { ok: false; problems: FieldProblem[] } {
  if (typeof spec !== "object" || spec === null || Array.isArray(spec))
    return { ok: false, problems: [{ field: "", message: `an evaluator must be an object with a "kind" (got ${typeName(spec)})` }] };
  const kind = (spec as { kind?: unknown }).kind;
  if (typeof kind !== "string" || !(EVALUATOR_KINDS as readonly string[]).includes(kind))
    return {
      ok: false,
      problems: [
        {
          field: "kind",
          message:
            kind === undefined
              ? `kind is required: one of ${EVALUATOR_KINDS.join(", ")}`
              : `unknown evaluator kind ${JSON.stringify(kind)}: use one of ${EVALUATOR_KINDS.join(", ")}`,
        },
      ],
    };
  const parsed = evaluatorSpecSchema.safeParse(spec);
  if (!parsed.success) return { ok: false, problems: zodProblems(parsed.error, spec) };
  return { ok: true, spec: parsed.data };
}

/**
 * Problems a well-shaped spec has on its own (not depending on the case): empty answer bank, bad
 * regex, invalid JSON Schema, malformed tool-call expectations, empty custom code or criterion rule.
 */
export function intrinsicProblems(spec: EvaluatorSpec): FieldProblem[] {
  switch (spec.kind) {
    case "answer_bank":
      return checkAnswerBank(spec);
    case "regex":
      return checkRegex(spec);
    case "json":
      return checkJson(spec);
    case "tool_call_syntax":
      return checkToolCallSyntax(spec);
    case "expected_tool_calls":
      return checkExpectedToolCalls(spec);
    case "gsm8k":
      return checkGsm8k(spec, { expected: "0" }).filter((p) => p.field !== "expected");
    case "custom": {
      if (spec.code.trim() === "") return [{ field: "code", message: "code is empty: define a function evaluate({ output, ... })" }];
      if (!/\bevaluate\b/.test(spec.code))
        return [{ field: "code", message: "code must define a function named evaluate, e.g. function evaluate({ output }) { return output.length > 0 }" }];
      return [];
    }
    case "judge": {
      const problems: FieldProblem[] = [];
      if (spec.criterion.rule.trim() === "") problems.push({ field: "criterion.rule", message: "the criterion's rule is empty" });
      if (spec.threshold !== undefined && (spec.threshold < 1 || spec.threshold > 10 || !Number.isFinite(spec.threshold)))
        problems.push({ field: "threshold", message: `threshold must be between 1 and 10 (got ${spec.threshold})` });
      if (spec.threshold !== undefined && (spec.mode ?? "binary") === "binary")
        problems.push({ field: "threshold", message: 'threshold only applies to mode "numeric"; remove it or set mode to "numeric"' });
      return problems;
    }
    default:
      return [];
  }
}

const count = (n: number) => n.toLocaleString("en-US");

/**
 * Problems of what an author writes that a bench would still run: a judged criterion longer than the
 * criterion form accepts. Checked when a spec is saved, never when a pinned spec runs, so a rule
 * stored before the limit keeps being judged.
 */
function writtenProblems(spec: EvaluatorSpec): FieldProblem[] {
  if (spec.kind !== "judge") return [];
  const c = spec.criterion;
  const problems: FieldProblem[] = [];
  if (c.rule.length > LIMITS.criterionRule)
    problems.push({
      field: "criterion.rule",
      message: `the criterion's rule is too long: the limit is ${count(LIMITS.criterionRule)} characters (got ${count(c.rule.length)})`,
    });
  for (const field of ["passes", "fails"] as const) {
    const v = c[field];
    if (v !== undefined && v.length > LIMITS.criterionPassFail)
      problems.push({
        field: `criterion.${field}`,
        message: `the criterion's "${field}" is too long: the limit is ${count(LIMITS.criterionPassFail)} characters (got ${count(v.length)})`,
      });
  }
  return problems;
}

/** Problems that depend on the case: an expected value that is missing or empty (exact, contains, gsm8k). */
function contextProblems(spec: EvaluatorSpec, context: SpecContext | undefined): FieldProblem[] {
  switch (spec.kind) {
    case "exact":
      return checkExact(spec, context);
    case "contains":
      return checkContains(spec, context);
    case "gsm8k":
      return checkGsm8k(spec, context).filter((p) => p.field === "expected");
    default:
      return [];
  }
}

/**
 * Validates the evaluator specs of a case before it is saved.
 * @param specs the `evaluators` list as stored (unknown JSON)
 * @param context what is known about the case; `context.expected` is the case's expected result,
 *   used by specs that omit their own `expected` (leave it undefined only if the case has none)
 * @returns every problem found, each with the spec index, the field path inside that spec and a
 *   message naming the field; empty when all specs are valid. A non-list input gives one problem
 *   with index -1. Never throws.
 */
export function validateEvaluatorSpecs(specs: unknown, context?: SpecContext): SpecProblem[] {
  if (!Array.isArray(specs)) return [{ index: -1, field: "", message: "evaluators must be a list" }];
  const problems: SpecProblem[] = [];
  specs.forEach((raw, index) => {
    const parsed = parseEvaluatorSpec(raw);
    if (!parsed.ok) {
      for (const p of parsed.problems) problems.push({ index, ...p });
      return;
    }
    for (const p of intrinsicProblems(parsed.spec)) problems.push({ index, ...p });
    for (const p of writtenProblems(parsed.spec)) problems.push({ index, ...p });
    for (const p of contextProblems(parsed.spec, context)) problems.push({ index, ...p });
  });
  return problems;
}
