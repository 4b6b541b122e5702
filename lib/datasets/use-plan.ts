/**
 * "Use a dataset" planning (issue 3): which rows of a saved version become golden cases of a
 * prompt, which are blocked and why, and what the target prompt's template lacks. Pure: the
 * database part (case IDs already in the library, the insert) is db/queries/datasets.ts.
 */
import { caseKeyProblem } from "@/lib/library/case-key";
import { applyMapping, type CaseDraft, type ColumnMapping } from "@/lib/import/mapping";
import type { ImportProblem, ImportTable } from "@/lib/import/types";

/** A row that will not become a case, with every error that blocks it. */
export interface BlockedRow {
  row: number;
  problems: ImportProblem[];
}

/** Result of {@link planUse}. */
export interface UsePlan {
  /** Rows that become cases (not excluded, not blocked), in row order. */
  drafts: CaseDraft[];
  /** Rows with errors (missing input or expected result, unreadable history, repeated or invalid case ID). */
  blocked: BlockedRow[];
  /** Warnings for this prompt (a template variable no column gives, rows lacking a variable). */
  warnings: ImportProblem[];
  /** Mapping-level errors (no input column …): nothing can be added while there are any. */
  mappingErrors: ImportProblem[];
  excludedRows: number[];
}

/**
 * Plans the copy of a version's rows into a prompt's library.
 * @param table the version's stored rows (corrected and redacted)
 * @param mapping the version's mapping
 * @param excludedRows rows the user excluded when saving
 * @param templateVariables the target prompt's `{{variables}}`
 */
export function planUse(table: ImportTable, mapping: ColumnMapping, excludedRows: readonly number[], templateVariables: readonly string[]): UsePlan {
  const mapped = applyMapping(table, mapping, { excludedRows: [...excludedRows], templateVariables: [...templateVariables] });
  const strip = (p: ImportProblem): ImportProblem => {
    // Stored rows have no file lines; the row number is what the pages show.
    const { line: _line, sheetRow: _sheetRow, ...rest } = p;
    return rest;
  };
  const byRow = new Map<number, ImportProblem[]>();
  const warnings: ImportProblem[] = [];
  const mappingErrors: ImportProblem[] = [];
  for (const raw of mapped.problems) {
    const p = strip(raw);
    if (p.severity === "warning") warnings.push(p);
    else if (p.row === undefined) mappingErrors.push(p);
    else byRow.set(p.row, [...(byRow.get(p.row) ?? []), p]);
  }
  const drafts: CaseDraft[] = [];
  for (const d of mapped.drafts) {
    const keyProblem = d.caseKey === undefined ? null : caseKeyProblem(d.caseKey);
    if (keyProblem) {
      const column = mapping.find((a) => a.role === "case_id")?.column;
      const p: ImportProblem = { severity: "error", code: "invalid_case_id", row: d.rowNumber, message: `Row ${d.rowNumber}: ${keyProblem}` };
      if (column !== undefined) p.column = column;
      byRow.set(d.rowNumber, [...(byRow.get(d.rowNumber) ?? []), p]);
    }
    if (!d.blocked && !keyProblem) drafts.push(d);
  }
  const blocked = [...byRow.entries()].sort((a, b) => a[0] - b[0]).map(([row, problems]) => ({ row, problems }));
  // A mapping without input/expected blocks every row without naming it: list them all the same.
  if (mappingErrors.length > 0) {
    for (const d of mapped.drafts) if (!byRow.has(d.rowNumber)) blocked.push({ row: d.rowNumber, problems: mappingErrors });
    blocked.sort((a, b) => a.row - b.row);
  }
  return { drafts: mappingErrors.length > 0 ? [] : drafts, blocked, warnings, mappingErrors, excludedRows: mapped.excludedRows };
}

/**
 * Union of the `{{variables}}` of several templates, in order of first use.
 * @param lists variable names per template
 */
export function unionVariables(lists: readonly (readonly string[])[]): string[] {
  const out = new Set<string>();
  for (const l of lists) for (const v of l) out.add(v);
  return [...out];
}
