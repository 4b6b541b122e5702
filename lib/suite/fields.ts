/**
 * The fields of evals and cases (issue #6): which keys each place accepts, and the shape check of
 * each value, with messages that name the field and what is wrong. Used by compile.ts.
 */
import { LIMITS } from "../library/limits";
import type { CaseFields } from "./types";

/** Every inheritable field, in the order they are resolved and reported. */
export const CASE_FIELD_KEYS = [
  "title",
  "description",
  "prompt",
  "systemPrompt",
  "expected",
  "tools",
  "evaluate",
  "data",
  "labels",
  "metadata",
  "timeoutSeconds",
  "maxSteps",
  "temperature",
  "criteria",
  "judgeMode",
  "judgeThreshold",
  "judgeModel",
  "expectedToolCalls",
  "allowAdditionalToolCalls",
  "setup",
  "teardown",
] as const satisfies readonly (keyof CaseFields)[];

/** Keys of an eval (default export of an eval module). */
export const EVAL_KEYS: ReadonlySet<string> = new Set(["id", "cases", ...CASE_FIELD_KEYS]);

/** Keys of an inline case (in the eval module). */
export const INLINE_CASE_KEYS: ReadonlySet<string> = new Set(["id", ...CASE_FIELD_KEYS]);

/** Keys of a JSONL case: data only (no functions). */
export const JSONL_CASE_KEYS: ReadonlySet<string> = new Set(["id", ...CASE_FIELD_KEYS.filter((k) => k !== "setup" && k !== "teardown")]);

/** How a model block looks, for messages. */
export const MODEL_BLOCK_EXAMPLE = '{ provider: "openai-compatible", modelId: "llama3.1", baseUrl: "http://127.0.0.1:11434/v1" }';

/** Columns a CSV of cases may have (issue #6: CSV rows carry text only). */
export const CSV_COLUMNS = ["id", "prompt", "expected", "description"] as const;

/** Eval-level evaluator kinds a CSV of cases may be used with. */
export const CSV_EVALUATOR_KINDS = ["non_empty", "exact", "contains"] as const;

function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "function") return "a function";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

/** True for a plain object (not an array, not a class instance such as Date or Map). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * Why `v` is not JSON-compatible data (plain objects, arrays, strings, finite numbers, booleans,
 * null), with the path of the first offending value; null when it is.
 */
export function jsonProblem(v: unknown, path = ""): string | null {
  if (v === null || typeof v === "string" || typeof v === "boolean") return null;
  if (typeof v === "number") return Number.isFinite(v) ? null : `${path || "value"} is ${v}, which JSON cannot hold`;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = jsonProblem(v[i], `${path}[${i}]`);
      if (p) return p;
    }
    return null;
  }
  if (isPlainObject(v)) {
    for (const [k, x] of Object.entries(v)) {
      const p = jsonProblem(x, path ? `${path}.${k}` : k);
      if (p) return p;
    }
    return null;
  }
  return `${path || "value"} is ${typeName(v)}${typeof v === "object" ? ` (${(v as object).constructor?.name ?? "object"})` : ""}, which is not JSON data`;
}

const stringList = (field: string) => (v: unknown) =>
  Array.isArray(v) && v.every((x) => typeof x === "string") ? null : `${field} must be a list of strings (got ${typeName(v)})`;
const text = (field: string) => (v: unknown) => (typeof v === "string" ? null : `${field} must be text (got ${typeName(v)})`);
const jsonObject = (field: string) => (v: unknown) => {
  if (!isPlainObject(v)) return `${field} must be an object of JSON data (got ${typeName(v)})`;
  const p = jsonProblem(v);
  return p ? `${field}: ${p}` : null;
};
const fn = (field: string) => (v: unknown) => (typeof v === "function" ? null : `${field} must be a function (got ${typeName(v)})`);

/** Shape check of each field's value (null is always allowed: it clears the field). */
const CHECKS: Record<(typeof CASE_FIELD_KEYS)[number], (v: unknown) => string | null> = {
  title: text("title"),
  description: text("description"),
  prompt: text("prompt"),
  systemPrompt: text("systemPrompt"),
  expected: text("expected"),
  tools: stringList("tools"),
  // evaluate: checked in compile.ts (specs through lib/evaluators, or a function)
  evaluate: (v) =>
    typeof v === "function" || isPlainObject(v) || Array.isArray(v)
      ? null
      : `evaluate must be an evaluator declaration such as { kind: "contains" }, a list of them, or a function (got ${typeName(v)})`,
  data: jsonObject("data"),
  labels: stringList("labels"),
  metadata: jsonObject("metadata"),
  timeoutSeconds: (v) =>
    typeof v === "number" && Number.isFinite(v) && v > 0
      ? null
      : `timeoutSeconds must be a positive number of seconds (got ${JSON.stringify(v) ?? typeName(v)})`,
  maxSteps: (v) =>
    typeof v === "number" && Number.isInteger(v) && v >= 1 && v <= 100
      ? null
      : `maxSteps must be a whole number from 1 to 100 (got ${JSON.stringify(v) ?? typeName(v)})`,
  temperature: (v) => (typeof v === "number" && v >= 0 && v <= 2 ? null : `temperature must be a number from 0 to 2 (got ${JSON.stringify(v) ?? typeName(v)})`),
  criteria: (v) =>
    typeof v !== "string" || v.trim() === ""
      ? `criteria must be non-empty text (got ${typeName(v)})`
      : v.length > LIMITS.criterionRule
        ? `criteria is too long: the limit is ${LIMITS.criterionRule.toLocaleString("en-US")} characters, as for a criterion's rule in the library (got ${v.length.toLocaleString("en-US")})`
        : null,
  judgeMode: (v) => (v === "binary" || v === "numeric" ? null : `judgeMode must be "binary" or "numeric" (got ${JSON.stringify(v) ?? typeName(v)})`),
  judgeThreshold: (v) =>
    typeof v === "number" && Number.isInteger(v) && v >= 1 && v <= 10
      ? null
      : `judgeThreshold must be a whole number from 1 to 10 (got ${JSON.stringify(v) ?? typeName(v)})`,
  // judgeModel: the shape here; provider, model id, URL and key variable in compile.ts (parseModelBlock)
  judgeModel: (v) => (isPlainObject(v) ? null : `judgeModel must be a model block like ${MODEL_BLOCK_EXAMPLE} (got ${typeName(v)})`),
  expectedToolCalls: (v) =>
    stringList("expectedToolCalls")(v) ?? (Array.isArray(v) && v.length === 0 ? "expectedToolCalls is empty: list tool names, or leave it out" : null),
  allowAdditionalToolCalls: (v) => (typeof v === "boolean" ? null : `allowAdditionalToolCalls must be true or false (got ${typeName(v)})`),
  setup: fn("setup"),
  teardown: fn("teardown"),
};

/**
 * Problems with the keys and values of one eval or case object.
 * @param obj the object as written
 * @param allowed the keys accepted at this place ({@link EVAL_KEYS}, {@link INLINE_CASE_KEYS}, {@link JSONL_CASE_KEYS})
 * @param where how to name the place in messages, e.g. `case 2` or `the eval`
 * @returns messages, one per problem (unknown keys first); empty when the object is fine
 */
export function fieldProblems(obj: Record<string, unknown>, allowed: ReadonlySet<string>, where: string): string[] {
  const out: string[] = [];
  for (const key of Object.keys(obj)) {
    if (!allowed.has(key)) {
      const hint =
        key === "tags" ? ' (use "labels")' : key === "evaluator" || key === "evaluators" ? ' (use "evaluate")' : key === "input" ? ' (use "prompt")' : "";
      out.push(`${where} has an unknown field "${key}"${hint}; allowed: ${[...allowed].join(", ")}`);
    }
  }
  for (const key of CASE_FIELD_KEYS) {
    if (!allowed.has(key)) continue;
    const v = obj[key];
    if (v === undefined || v === null) continue;
    const p = CHECKS[key](v);
    if (p) out.push(`${where}: ${p}`);
  }
  if (allowed.has("id") && obj.id !== undefined && obj.id !== null && typeof obj.id !== "string")
    out.push(`${where}: id must be text (got ${typeName(obj.id)})`);
  return out;
}
