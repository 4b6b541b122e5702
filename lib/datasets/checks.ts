/**
 * Checks that come with the data (issue 15): at mapping time the importer proposes the checks the
 * mapped roles make possible; the user confirms them for the whole dataset; they are stored with
 * the dataset version and become evaluators of every golden case made from it.
 *
 * A dataset check is a rule for every row, not one row's evaluator: `exact`, `contains` and
 * `gsm8k` compare with the row's expected result (the evaluator reads it from the case, so an
 * edited expected result is still what counts); `answer_bank` splits the expected result into
 * accepted answers; `regex` reads the expected result as the pattern; `json` needs valid JSON;
 * `expected_tool_calls` needs the tools named in the row's expected-tool-calls column.
 * Pure: imports only zod and the mapping types.
 */
import { z } from "zod";
import type { ColumnMapping } from "@/lib/import/mapping";

/** Kinds of dataset checks, in the order the Map step lists them. */
export const DATASET_CHECK_KINDS = ["exact", "contains", "answer_bank", "gsm8k", "regex", "json", "expected_tool_calls"] as const;
/** One of {@link DATASET_CHECK_KINDS}. */
export type DatasetCheckKind = (typeof DATASET_CHECK_KINDS)[number];

const textOptions = {
  /** Compare without regard to letter case (default false: case-sensitive). */
  ignoreCase: z.boolean().optional(),
  /** Remove leading and trailing whitespace before comparing (default false). */
  trim: z.boolean().optional(),
};

/** zod schema of one dataset check (what the Map step and the CLI's `--checks` send). */
export const datasetCheckSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("exact"), ...textOptions }),
  z.strictObject({ kind: z.literal("contains"), ...textOptions }),
  z.strictObject({
    kind: z.literal("answer_bank"),
    /** What separates the accepted answers in the expected result (default `|`). */
    separator: z.string().min(1, { error: "The answer separator must not be empty." }).max(10).optional(),
    ...textOptions,
  }),
  z.strictObject({ kind: z.literal("gsm8k"), mode: z.enum(["strict", "flexible"]).optional() }),
  z.strictObject({
    kind: z.literal("regex"),
    flags: z
      .string()
      .regex(/^[imsuv]*$/, { error: "Regular-expression flags may only be i, m, s, u, v." })
      .optional(),
  }),
  z.strictObject({ kind: z.literal("json") }),
  z.strictObject({ kind: z.literal("expected_tool_calls"), allowAdditional: z.boolean().optional() }),
]);
/** One dataset check. */
export type DatasetCheck = z.infer<typeof datasetCheckSchema>;

/** The checks of one dataset version: at most one of each kind. */
export const datasetChecksSchema = z
  .array(datasetCheckSchema)
  .max(DATASET_CHECK_KINDS.length)
  .refine((list) => new Set(list.map((c) => c.kind)).size === list.length, { error: "Each kind of check can be chosen once." });

/** Human names of the dataset checks (the Map step, the CLI, the version page). */
export const DATASET_CHECK_LABEL: Record<DatasetCheckKind, string> = {
  exact: "Exact match with the expected result (case-sensitive)",
  contains: "Output contains the expected result",
  answer_bank: "Output equals one of the answers in the expected result (separated by |)",
  gsm8k: "GSM8K final answer equals the expected number",
  regex: "Output matches the expected result as a regular expression",
  json: "Output is valid JSON",
  expected_tool_calls: "The expected tools are called",
};

/** One offered check: the check, whether it is proposed (ticked) and why. */
export interface CheckOption {
  check: DatasetCheck;
  proposed: boolean;
  reason: string;
}

/** A GSM8K worked solution ends in `#### N`; a bare number is also a GSM8K answer. */
const GSM8K_ANSWER = /####\s*-?[\d,]+(\.\d+)?\s*$/;

/**
 * The checks the mapped roles make possible, proposed ones first marked `proposed`.
 * - expected result + recorded outputs → `exact` (the reference: recorded answers are compared
 *   exactly and case-sensitively), with `contains`, `answer_bank`, `gsm8k`, `regex`, `json` offered;
 * - expected results that are GSM8K solutions (`#### N`) → `gsm8k` instead of `exact`;
 * - expected results that are short one-line answers, without recorded outputs → `exact`;
 * - an expected-tool-calls column → `expected_tool_calls`.
 * @param mapping the column roles
 * @param sampleExpected expected results of the first rows (to recognise GSM8K answers and short answers)
 */
export function proposeChecks(mapping: ColumnMapping, sampleExpected: readonly string[]): CheckOption[] {
  const has = (role: string) => mapping.some((a) => a.role === role);
  const out: CheckOption[] = [];
  if (has("expected")) {
    const filled = sampleExpected.filter((e) => e.trim() !== "");
    const gsm8k = filled.length > 0 && filled.filter((e) => GSM8K_ANSWER.test(e)).length * 2 > filled.length;
    const short = filled.length > 0 && filled.every((e) => e.length <= 80 && !e.includes("\n"));
    const recorded = has("actual_output");
    const exactProposed = !gsm8k && (recorded || short);
    out.push({
      check: { kind: "exact" },
      proposed: exactProposed,
      reason: recorded
        ? "The dataset has an expected result and recorded outputs: recorded answers are compared exactly and case-sensitively."
        : "The expected results are short answers.",
    });
    out.push({ check: { kind: "contains" }, proposed: false, reason: "For answers that may say more than the expected text." });
    out.push({
      check: { kind: "answer_bank", separator: "|" },
      proposed: false,
      reason: "For expected results that list several accepted answers, such as “yes|y”.",
    });
    out.push({
      check: { kind: "gsm8k" },
      proposed: gsm8k,
      reason: gsm8k ? "The expected results end in “#### N” (GSM8K)." : "For math answers: the number after the last “####”.",
    });
    out.push({ check: { kind: "regex" }, proposed: false, reason: "For expected results written as regular expressions." });
    out.push({ check: { kind: "json" }, proposed: false, reason: "For outputs that must be JSON." });
  }
  if (has("expected_tool_calls")) {
    out.push({ check: { kind: "expected_tool_calls" }, proposed: true, reason: "The dataset names the tools each case should call." });
  }
  return out;
}

/** The checks a dataset gets when nobody chose: the proposed ones. */
export function proposedChecks(mapping: ColumnMapping, sampleExpected: readonly string[]): DatasetCheck[] {
  return proposeChecks(mapping, sampleExpected)
    .filter((o) => o.proposed)
    .map((o) => o.check);
}

/** What a row gives the checks: its expected result and the tools it expects (if mapped). */
export interface RowForChecks {
  expected: string;
  expectedToolNames?: string[];
}

/**
 * The evaluator specs (lib/evaluators/spec.ts) one golden case gets from the dataset's checks.
 * A check the row cannot support (no expected tool names) gives no evaluator for that row.
 * @param checks the version's checks
 * @param row the row's expected result and expected tool names
 */
export function evaluatorsForRow(checks: readonly DatasetCheck[], row: RowForChecks): unknown[] {
  const out: unknown[] = [];
  for (const c of checks) {
    switch (c.kind) {
      case "exact":
      case "contains":
        // No `expected`: the evaluator compares with the case's expected result.
        out.push(withTextOptions({ kind: c.kind }, c));
        break;
      case "answer_bank": {
        const answers = row.expected
          .split(c.separator ?? "|")
          .map((a) => a.trim())
          .filter((a) => a !== "");
        out.push(withTextOptions({ kind: "answer_bank", answers }, c));
        break;
      }
      case "gsm8k":
        out.push(c.mode ? { kind: "gsm8k", mode: c.mode } : { kind: "gsm8k" });
        break;
      case "regex":
        out.push(c.flags ? { kind: "regex", pattern: row.expected, flags: c.flags } : { kind: "regex", pattern: row.expected });
        break;
      case "json":
        out.push({ kind: "json" });
        break;
      case "expected_tool_calls":
        if (row.expectedToolNames && row.expectedToolNames.length > 0) {
          out.push(
            c.allowAdditional === undefined
              ? { kind: "expected_tool_calls", names: row.expectedToolNames }
              : { kind: "expected_tool_calls", names: row.expectedToolNames, allowAdditional: c.allowAdditional },
          );
        }
        break;
    }
  }
  return out;
}

function withTextOptions(spec: Record<string, unknown>, c: { ignoreCase?: boolean; trim?: boolean }): Record<string, unknown> {
  const out: Record<string, unknown> = { ...spec };
  if (c.ignoreCase) out.ignoreCase = true;
  if (c.trim) out.trim = true;
  return out;
}

/**
 * Parses the CLI's `--checks` value: kinds separated by commas (`exact`, `contains,json`), or
 * `none` for no check.
 * @returns the checks, or an error message naming the unknown kind and the known ones
 */
export function parseChecksOption(value: string): { ok: true; checks: DatasetCheck[] } | { ok: false; message: string } {
  const kinds = value
    .split(",")
    .map((k) => k.trim())
    .filter((k) => k !== "");
  if (kinds.length === 1 && kinds[0] === "none") return { ok: true, checks: [] };
  const checks: DatasetCheck[] = [];
  for (const k of kinds) {
    if (!(DATASET_CHECK_KINDS as readonly string[]).includes(k)) {
      return { ok: false, message: `--checks: "${k}" is not a check; use one or more of ${DATASET_CHECK_KINDS.join(", ")} (comma-separated), or none.` };
    }
    if (checks.some((c) => c.kind === k)) continue;
    checks.push(k === "answer_bank" ? { kind: "answer_bank", separator: "|" } : ({ kind: k } as DatasetCheck));
  }
  if (checks.length === 0) return { ok: false, message: `--checks needs a value: one or more of ${DATASET_CHECK_KINDS.join(", ")}, or none.` };
  return { ok: true, checks };
}
