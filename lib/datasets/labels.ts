/** Short texts shared by the dataset pages and the CLI: where a problem is, what a column does. */
import { ROLE_LABEL, type ColumnAssignment } from "@/lib/import/mapping";
import type { ImportProblem } from "@/lib/import/types";

/**
 * Where a problem is, e.g. `row 3 (line 4), column "expected"`; empty for file-level problems.
 * @param p the problem
 */
export function problemPlace(p: Pick<ImportProblem, "row" | "line" | "sheetRow" | "column">): string {
  const parts: string[] = [];
  if (p.row !== undefined) {
    const src = p.line !== undefined ? ` (line ${p.line})` : p.sheetRow !== undefined ? ` (sheet row ${p.sheetRow})` : "";
    parts.push(`row ${p.row}${src}`);
  } else if (p.line !== undefined) parts.push(`line ${p.line}`);
  else if (p.sheetRow !== undefined) parts.push(`sheet row ${p.sheetRow}`);
  if (p.column !== undefined) parts.push(`column "${p.column}"`);
  return parts.join(", ");
}

/**
 * Label of a mapping assignment: `input`, `actual output (model-6b)`, `variable {{shop_name}}`.
 * @param a the assignment
 */
export function assignmentLabel(a: Pick<ColumnAssignment, "role" | "candidate" | "variable">): string {
  if (a.role === "actual_output") return `${ROLE_LABEL.actual_output} (${a.candidate || "?"})`;
  if (a.role === "variable") return `${ROLE_LABEL.variable} {{${a.variable || "?"}}}`;
  return ROLE_LABEL[a.role];
}

/**
 * Counts of problems by severity.
 * @param problems any problems
 */
export function countProblems(problems: readonly Pick<ImportProblem, "severity">[]): { errors: number; warnings: number } {
  let errors = 0;
  for (const p of problems) if (p.severity === "error") errors++;
  return { errors, warnings: problems.length - errors };
}
