/**
 * One-line human summaries of evaluator specs, for UI lists ("Exact match: “30 days”").
 * Imports only the spec defaults, spec types and pure helpers (no zod at run time), so UI code may import this file directly.
 */
import { SPEC_DEFAULTS } from "./spec-defaults";
import type { EvaluatorSpec, ToolCallAlternative } from "./spec";

/** A human name per case evaluator kind (the evaluator editor's kind menu, check rows that sum several cases). */
export const EVALUATOR_KIND_LABEL = {
  non_empty: "Non-empty output",
  exact: "Exact match",
  contains: "Contains text",
  answer_bank: "Answer bank",
  gsm8k: "GSM8K final answer",
  regex: "Regular expression",
  json: "Valid JSON (optional schema)",
  tool_call_syntax: "Tool-call syntax",
  expected_tool_calls: "Expected tools fire",
  custom: "Custom code (sandboxed)",
} as const satisfies Record<string, string>;

/** The human name of an evaluator kind, or the kind itself when it has none. */
export function evaluatorKindLabel(kind: string): string {
  return (EVALUATOR_KIND_LABEL as Record<string, string>)[kind] ?? kind;
}

function quote(text: string, max = 40): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return `“${flat.length > max ? flat.slice(0, max - 1) + "…" : flat}”`;
}

function textOptions(spec: { normalizeUnicode?: boolean; trim?: boolean; ignoreCase?: boolean }): string {
  const parts: string[] = [];
  if (spec.ignoreCase) parts.push("ignoring case");
  if (spec.trim) parts.push("trimmed");
  if (spec.normalizeUnicode === false) parts.push("no Unicode normalization");
  return parts.length ? ` (${parts.join(", ")})` : "";
}

function describeAlternative(alt: ToolCallAlternative): string {
  if (alt.calls.length === 0) return (alt.extraCalls ?? SPEC_DEFAULTS.extraCalls) === "forbid" ? "no tool calls" : "any calls";
  const calls = alt.calls.map((c) => `${c.toolName}(${Object.keys(c.arguments ?? {}).join(", ")})`);
  const shown = calls.length > 3 ? [...calls.slice(0, 3), `+${calls.length - 3} more`] : calls;
  const order = alt.calls.length > 1 ? ((alt.order ?? SPEC_DEFAULTS.order) === "ordered" ? ", in order" : ", any order") : "";
  const extra = (alt.extraCalls ?? SPEC_DEFAULTS.extraCalls) === "allow" ? ", other calls allowed" : "";
  return `${shown.join(", ")}${order}${extra}`;
}

/**
 * A one-line summary of an evaluator spec for lists, e.g. `Exact match: “30 days”`,
 * `GSM8K answer (marker “A:”, strict)`, `Tool calls: lookup_policy(topic)`.
 * @param spec any stored spec; an invalid one is summarised as "Invalid evaluator …"
 * @returns the summary (at most ~120 characters); never throws
 */
export function describeEvaluator(spec: EvaluatorSpec | unknown): string {
  if (typeof spec !== "object" || spec === null) return "Invalid evaluator";
  const s = spec as EvaluatorSpec;
  const named = typeof (s as { name?: unknown }).name === "string" && (s as { name: string }).name.trim() ? (s as { name: string }).name.trim() : null;
  const body = ((): string => {
    try {
      switch (s.kind) {
        case "non_empty":
          return "Output is not empty";
        case "exact":
          return `Exact match: ${s.expected !== undefined ? quote(s.expected) : "the case's expected result"}${textOptions(s)}`;
        case "contains":
          return `Contains ${s.expected !== undefined ? quote(s.expected) : "the case's expected result"}${textOptions(s)}`;
        case "answer_bank": {
          const n = s.answers?.length ?? 0;
          const first = (s.answers ?? [])
            .slice(0, 2)
            .map((a) => quote(a, 24))
            .join(", ");
          return `Equals one of ${n} answer${n === 1 ? "" : "s"}${n ? `: ${first}${n > 2 ? ", …" : ""}` : ""}${textOptions(s)}`;
        }
        case "gsm8k":
          return `GSM8K answer = ${
            s.expected !== undefined
              ? s.expected
                  .trim()
                  .split("\n")
                  .pop()
                  ?.replace(/^####\s*/, "")
              : "the case's expected result"
          } (marker ${quote(s.marker ?? SPEC_DEFAULTS.gsm8kMarker, 12)}, ${s.mode ?? SPEC_DEFAULTS.gsm8kMode})`;
        case "regex":
          return `Matches /${s.pattern.length > 50 ? s.pattern.slice(0, 49) + "…" : s.pattern}/${(s.flags ?? "").replace(/[gd]/g, "")}`;
        case "json":
          return s.schema === undefined ? "Valid JSON" : "Valid JSON matching a schema";
        case "tool_call_syntax": {
          const alts = s.alternatives ?? [];
          if (alts.length === 1) return `Tool calls: ${describeAlternative(alts[0])}`;
          return `Tool calls: ${alts.length} alternatives (first: ${alts[0] ? describeAlternative(alts[0]) : "none"})`;
        }
        case "expected_tool_calls":
          return `Calls ${(s.names ?? []).join(", ") || "(no tools)"}${(s.allowAdditional ?? SPEC_DEFAULTS.allowAdditional) ? "" : " and nothing else"}`;
        case "custom": {
          const lines = s.code ? s.code.split("\n").length : 0;
          return `Custom evaluator (${lines} line${lines === 1 ? "" : "s"} of JavaScript)`;
        }
        case "judge": {
          const mode = s.mode ?? SPEC_DEFAULTS.judgeMode;
          const how = mode === "numeric" ? `score ≥ ${s.threshold ?? SPEC_DEFAULTS.judgeThreshold}/10` : "pass/fail";
          return `Judge (${how}): ${quote(s.criterion?.rule ?? "", 60)}`;
        }
        default:
          return `Invalid evaluator (unknown kind ${JSON.stringify((s as { kind?: unknown }).kind)})`;
      }
    } catch {
      return `Invalid evaluator (${String((s as { kind?: unknown }).kind)})`;
    }
  })();
  return named ? `${named} — ${body}` : body;
}
