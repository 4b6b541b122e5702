/**
 * Evaluator declarations ("specs"): plain JSON data stored with a case revision
 * (`CaseContent.evaluators`) or with a rubric (judge criteria). One zod schema per kind, and the
 * union {@link evaluatorSpecSchema}.
 *
 * Specs are stored exactly as authored: the schemas declare no zod defaults. Defaults are applied
 * when a spec is compiled and are listed in {@link SPEC_DEFAULTS}.
 *
 * Imports only zod, so UI code may import this file directly.
 */
import { z } from "zod";

// The defaults live apart (no zod): the results page describes checks without loading the schemas.
export { SPEC_DEFAULTS } from "./spec-defaults";

/** Maximum length of custom evaluator code, in characters. */
export const MAX_CUSTOM_CODE_LENGTH = 200_000;

/** Optional human label shared by all specs (shown in result lists instead of the summary). */
const label = { name: z.string().max(200).optional() };

/** Text comparison options shared by `exact`, `contains` and `answer_bank`. */
const textOptions = {
  /** Compare Unicode NFC forms (default true); the message says when normalisation mattered. */
  normalizeUnicode: z.boolean().optional(),
  /** Remove leading and trailing whitespace (including invisible characters) before comparing (default false). */
  trim: z.boolean().optional(),
  /** Compare case-insensitively (default false: case-sensitive). */
  ignoreCase: z.boolean().optional(),
};

/** `non_empty`: the output must contain at least one visible character. */
export const nonEmptySpecSchema = z.strictObject({ kind: z.literal("non_empty"), ...label });

/**
 * `exact`: the output must equal `expected`. Without `expected`, the case's expected result is used.
 */
export const exactSpecSchema = z.strictObject({
  kind: z.literal("exact"),
  ...label,
  expected: z.string().optional(),
  ...textOptions,
});

/** `contains`: the output must contain `expected` as a literal substring (never a regular expression). */
export const containsSpecSchema = z.strictObject({
  kind: z.literal("contains"),
  ...label,
  expected: z.string().optional(),
  ...textOptions,
});

/** `answer_bank`: the output must equal one of `answers`; each answer is one string, commas included. */
export const answerBankSpecSchema = z.strictObject({
  kind: z.literal("answer_bank"),
  ...label,
  answers: z.array(z.string()),
  ...textOptions,
});

/**
 * `gsm8k`: GSM8K-style final answer. The answer is the number after the last `marker` (default
 * `####`); `flexible` mode falls back to the last number in the output. `expected` is a number
 * (thousands separators allowed) or a worked solution ending in `#### N`; without it the case's
 * expected result is used.
 */
export const gsm8kSpecSchema = z.strictObject({
  kind: z.literal("gsm8k"),
  ...label,
  expected: z.string().optional(),
  mode: z.enum(["strict", "flexible"]).optional(),
  marker: z.string().optional(),
});

/** `regex`: the output must match `pattern` (JavaScript syntax; flags from `imsuv`, `g` is ignored). */
export const regexSpecSchema = z.strictObject({
  kind: z.literal("regex"),
  ...label,
  pattern: z.string(),
  flags: z.string().optional(),
});

/** `json`: the output must be valid JSON and, when `schema` is given, match that JSON Schema (ajv). */
export const jsonSpecSchema = z.strictObject({
  kind: z.literal("json"),
  ...label,
  schema: z.union([z.record(z.string(), z.unknown()), z.boolean()]).optional(),
  allowCodeFence: z.boolean().optional(),
});

/** Rule for one argument of an expected tool call. */
export const argumentRuleSchema = z.strictObject({
  /** Must the argument be present? Default true. An `""` in `acceptedValues` also makes it optional. */
  required: z.boolean().optional(),
  /** Any one of these JSON values is accepted (numbers by value, arrays in order, key order ignored). Absent: any value. */
  acceptedValues: z.array(z.json()).optional(),
});

/** One expected tool call. */
export const expectedCallSchema = z.strictObject({
  /** Tool name, case-sensitive. */
  toolName: z.string(),
  arguments: z.record(z.string(), argumentRuleSchema).optional(),
  /** `forbid` (default): arguments not listed fail the call. `allow`: they are ignored. */
  extraArguments: z.enum(["forbid", "allow"]).optional(),
});

/** One acceptable set of tool calls. */
export const toolCallAlternativeSchema = z.strictObject({
  /** `unordered` (default): one-to-one matching in any order. `ordered`: in this order. */
  order: z.enum(["ordered", "unordered"]).optional(),
  calls: z.array(expectedCallSchema),
  /** `forbid` (default): calls not matched by an expected call fail the alternative. */
  extraCalls: z.enum(["forbid", "allow"]).optional(),
});

/** `tool_call_syntax`: the observed tool calls must match at least one alternative. */
export const toolCallSyntaxSpecSchema = z.strictObject({
  kind: z.literal("tool_call_syntax"),
  ...label,
  version: z.literal(1).optional(),
  alternatives: z.array(toolCallAlternativeSchema),
});

/** `expected_tool_calls`: every named tool must fire; with `allowAdditional: false` no other tool may. */
export const expectedToolCallsSpecSchema = z.strictObject({
  kind: z.literal("expected_tool_calls"),
  ...label,
  names: z.array(z.string()),
  allowAdditional: z.boolean().optional(),
});

/**
 * `custom`: JavaScript defining `evaluate({ output, caseData, toolCalls, normalizedToolCalls,
 * finishReason, usage })`, run in the QuickJS sandbox. Returns a boolean or
 * `{ passed, score?, message?, details? }`.
 */
export const customSpecSchema = z.strictObject({
  kind: z.literal("custom"),
  ...label,
  code: z.string().max(MAX_CUSTOM_CODE_LENGTH),
});

/** A judging criterion (DESIGN.md §1): rule text, what passes, what fails, priority. */
export const criterionSchema = z.strictObject({
  /** Criterion (revision) id, recorded with the result when present. */
  id: z.string().optional(),
  rule: z.string(),
  passes: z.string().optional(),
  fails: z.string().optional(),
  priority: z.enum(["primary", "secondary"]).optional(),
});

/** `judge`: a judge model applies `criterion` to the trial; `binary` pass/fail or `numeric` 1-10 with a threshold. */
export const judgeSpecSchema = z.strictObject({
  kind: z.literal("judge"),
  ...label,
  criterion: criterionSchema,
  mode: z.enum(["binary", "numeric"]).optional(),
  threshold: z.number().optional(),
});

/** Every evaluator spec, discriminated by `kind`. */
export const evaluatorSpecSchema = z.discriminatedUnion("kind", [
  nonEmptySpecSchema,
  exactSpecSchema,
  containsSpecSchema,
  answerBankSpecSchema,
  gsm8kSpecSchema,
  regexSpecSchema,
  jsonSpecSchema,
  toolCallSyntaxSpecSchema,
  expectedToolCallsSpecSchema,
  customSpecSchema,
  judgeSpecSchema,
]);

/** A `non_empty` spec. */
export type NonEmptySpec = z.infer<typeof nonEmptySpecSchema>;
/** An `exact` spec. */
export type ExactSpec = z.infer<typeof exactSpecSchema>;
/** A `contains` spec. */
export type ContainsSpec = z.infer<typeof containsSpecSchema>;
/** An `answer_bank` spec. */
export type AnswerBankSpec = z.infer<typeof answerBankSpecSchema>;
/** A `gsm8k` spec. */
export type Gsm8kSpec = z.infer<typeof gsm8kSpecSchema>;
/** A `regex` spec. */
export type RegexSpec = z.infer<typeof regexSpecSchema>;
/** A `json` spec. */
export type JsonSpec = z.infer<typeof jsonSpecSchema>;
/** Rule for one argument of an expected tool call (`required`, `acceptedValues`). */
export type ArgumentRule = z.infer<typeof argumentRuleSchema>;
/** One expected tool call of a `tool_call_syntax` alternative. */
export type ExpectedCall = z.infer<typeof expectedCallSchema>;
/** One acceptable set of tool calls (`order`, `calls`, `extraCalls`). */
export type ToolCallAlternative = z.infer<typeof toolCallAlternativeSchema>;
/** A `tool_call_syntax` spec (format version 1). */
export type ToolCallSyntaxSpec = z.infer<typeof toolCallSyntaxSpecSchema>;
/** An `expected_tool_calls` spec. */
export type ExpectedToolCallsSpec = z.infer<typeof expectedToolCallsSpecSchema>;
/** A `custom` spec (JavaScript run in the sandbox). */
export type CustomSpec = z.infer<typeof customSpecSchema>;
/** A judging criterion: rule, what passes, what fails, priority. */
export type Criterion = z.infer<typeof criterionSchema>;
/** A `judge` spec: a criterion applied by a judge model. */
export type JudgeSpec = z.infer<typeof judgeSpecSchema>;
/** Any evaluator spec. */
export type EvaluatorSpec = z.infer<typeof evaluatorSpecSchema>;
/** An evaluator kind, e.g. `"exact"`. */
export type EvaluatorKind = EvaluatorSpec["kind"];
/** Specs that run synchronously in-process (everything except `custom` and `judge`). */
export type StaticSpec = Exclude<EvaluatorSpec, CustomSpec | JudgeSpec>;

/** All evaluator kinds, in UI order. */
export const EVALUATOR_KINDS = [
  "non_empty",
  "exact",
  "contains",
  "answer_bank",
  "gsm8k",
  "regex",
  "json",
  "tool_call_syntax",
  "expected_tool_calls",
  "custom",
  "judge",
] as const satisfies readonly EvaluatorKind[];

/** Kinds that {@link StaticSpec} covers. */
export const STATIC_KINDS: ReadonlySet<string> = new Set<EvaluatorKind>([
  "non_empty",
  "exact",
  "contains",
  "answer_bank",
  "gsm8k",
  "regex",
  "json",
  "tool_call_syntax",
  "expected_tool_calls",
]);

/** True when `spec` is a static (synchronous, declarative) spec. Does not validate the rest of the spec. */
export function isStaticSpec(spec: EvaluatorSpec): spec is StaticSpec {
  return STATIC_KINDS.has(spec.kind);
}
