/**
 * The Map and preview step's analysis (issue 3 "Map and preview"), pure so it runs in the browser
 * as the user changes roles, edits cells or excludes rows — and is re-done on the server on Save.
 */
import { applyCorrections, applyMapping, validateMapping, type CaseDraft, type ColumnMapping, type MappingResult } from "@/lib/import/mapping";
import { previewRedaction, type RedactionReport } from "@/lib/import/redact/table";
import type { RedactionSettings } from "@/lib/import/redact/settings";
import type { ImportProblem, ImportTable } from "@/lib/import/types";
import { countProblems } from "./labels";
import type { Corrections } from "./types";

/** The user's choices on the Map and preview step. */
export interface PreviewChoices {
  mapping: ColumnMapping;
  corrections: Corrections;
  excludedRows: number[];
  /** The dataset's redaction settings (default: on, nothing kept). */
  redaction?: RedactionSettings;
}

/** Status of a row in "Rows with problems". */
export type ProblemRowStatus = "blocked" | "fixed" | "excluded" | "warning";

/** One row of "Rows with problems": what is wrong, and the cells the user may correct. */
export interface ProblemRow {
  row: number;
  line?: number;
  sheetRow?: number;
  status: ProblemRowStatus;
  /** The row's current problems; for a fixed or excluded row, the problems it had. */
  problems: ImportProblem[];
  /** Cells named by the row's errors (or already corrected): file text and current text. */
  cells: { column: string; original: string; value: string }[];
}

/** Result of {@link analysePreview}. */
export interface PreviewAnalysis {
  /** Problems of the mapping itself (no row): errors block Save; warnings (a template variable no column gives) inform. */
  mappingProblems: ImportProblem[];
  /** The mapping applied with corrections and exclusions (what Save would store). */
  result: MappingResult;
  /** Rows that have (or had) problems, or were corrected or excluded, in row order. */
  problemRows: ProblemRow[];
  redaction: RedactionReport;
  /** The first mapped rows (not excluded). */
  firstDrafts: CaseDraft[];
  /**
   * Warnings the version will list once saved: the file's own (rows above the header, skipped
   * lines, unnamed columns) and the mapping's — the count Save shows, so it agrees with the version page.
   */
  warnings: number;
}

/**
 * Analyses the current choices.
 * @param table the parsed table
 * @param choices mapping, corrections, excluded rows
 * @param templateVariables the system's prompt template variables
 * @param options how many first drafts and redaction samples to keep
 */
export function analysePreview(
  table: ImportTable,
  choices: PreviewChoices,
  templateVariables: readonly string[],
  options: { firstRows?: number; redactionSamples?: number } = {},
): PreviewAnalysis {
  const vars = [...templateVariables];
  // Without corrections or exclusions: which rows had problems to begin with (the list stays put while the user fixes them).
  const base = applyMapping(table, choices.mapping, { templateVariables: vars });
  const result = applyMapping(table, choices.mapping, { templateVariables: vars, corrections: choices.corrections, excludedRows: choices.excludedRows });
  const mappingProblems = [
    ...validateMapping(table.columns, choices.mapping),
    ...result.problems.filter((p) => p.row === undefined && p.severity === "warning"),
  ];

  const group = (problems: ImportProblem[]) => {
    const m = new Map<number, ImportProblem[]>();
    for (const p of problems) if (p.row !== undefined) m.set(p.row, [...(m.get(p.row) ?? []), p]);
    return m;
  };
  const before = group(base.problems);
  const now = group(result.problems);
  const excluded = new Set(result.excludedRows);
  const blocked = new Set(result.blockedRows);
  const rows = new Set<number>([...before.keys(), ...excluded]);
  for (const key of Object.keys(choices.corrections)) if (Number(key) >= 1 && Number(key) <= table.rows.length) rows.add(Number(key));
  const colIndex = new Map(table.columns.map((c, j) => [c, j]));

  const problemRows = [...rows]
    .sort((a, b) => a - b)
    .map((row): ProblemRow => {
      const had = before.get(row) ?? [];
      const has = now.get(row) ?? [];
      const status: ProblemRowStatus = excluded.has(row)
        ? "excluded"
        : blocked.has(row)
          ? "blocked"
          : had.some((p) => p.severity === "error")
            ? "fixed"
            : "warning";
      const problems = status === "excluded" || status === "fixed" ? had : has.length > 0 ? has : had;
      const cols = new Set<string>();
      for (const p of [...had, ...has]) if (p.severity === "error" && p.column !== undefined && colIndex.has(p.column)) cols.add(p.column);
      for (const c of Object.keys(choices.corrections[row] ?? {})) if (colIndex.has(c)) cols.add(c);
      const cells = [...cols]
        .sort((a, b) => colIndex.get(a)! - colIndex.get(b)!)
        .map((column) => {
          const original = table.rows[row - 1]?.[colIndex.get(column)!] ?? "";
          const fixed = choices.corrections[row]?.[column];
          return { column, original, value: fixed ?? original };
        });
      const out: ProblemRow = { row, status, problems, cells };
      const src = table.rowSources[row - 1];
      if (src !== undefined) {
        if (table.sourceKind === "line") out.line = src;
        else out.sheetRow = src;
      }
      return out;
    });

  const redaction = previewRedaction(applyCorrections(table, choices.corrections), {
    previewLimit: options.redactionSamples ?? 10,
    enabled: choices.redaction?.enabled,
    keep: choices.redaction?.keep,
  });
  const warnings = countProblems([...table.problems, ...result.problems]).warnings;
  return { mappingProblems, result, problemRows, redaction, firstDrafts: result.drafts.slice(0, options.firstRows ?? 5), warnings };
}

/**
 * Sets (or, when equal to the file's text, removes) one correction, returning new corrections.
 * @param table the parsed table
 * @param corrections current corrections
 * @param row data-row number
 * @param column column name
 * @param value the new text
 */
export function withCorrection(
  table: Pick<ImportTable, "columns" | "rows">,
  corrections: Corrections,
  row: number,
  column: string,
  value: string,
): Corrections {
  const original = table.rows[row - 1]?.[table.columns.indexOf(column)];
  const cells = { ...(corrections[row] ?? {}) };
  if (value === original) delete cells[column];
  else Object.defineProperty(cells, column, { value, enumerable: true, writable: true, configurable: true });
  const next: Corrections = { ...corrections };
  if (Object.keys(cells).length === 0) delete next[row];
  else next[row] = cells;
  return next;
}
