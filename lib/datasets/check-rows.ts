/**
 * Rows a dataset's checks cannot be made from (issue 15), named at mapping time: Use a dataset
 * refuses such a row, so Map and preview says so while the row can still be corrected or excluded.
 */
import { validateEvaluatorSpecs } from "@/lib/evaluators/validate";
import { evaluatorsForRow, type DatasetCheck, type RowForChecks } from "./checks";

/** One row a check cannot use: its data row number (1-based), the check's kind and why. */
export interface RowCheckProblem {
  row: number;
  kind: string;
  message: string;
}

/**
 * The rows whose expected result a chosen check cannot use (a regex check over an expected result
 * that is not a valid regular expression, …), in row order, worded as Use a dataset's refusal.
 * @param checks the checks chosen for the version
 * @param rows each mapped row's number, expected result and expected tool names
 */
export function rowsChecksCannotUse(checks: readonly DatasetCheck[], rows: readonly (RowForChecks & { row: number })[]): RowCheckProblem[] {
  if (checks.length === 0) return [];
  const out: RowCheckProblem[] = [];
  for (const r of rows) {
    const evaluators = evaluatorsForRow(checks, r);
    const bad = validateEvaluatorSpecs(evaluators, { expected: r.expected })[0];
    if (!bad) continue;
    const kind = String((evaluators[bad.index] as { kind?: unknown } | undefined)?.kind ?? "");
    out.push({ row: r.row, kind, message: `Row ${r.row}: the ${kind} check cannot be made from this row: ${bad.message}.` });
  }
  return out;
}
