/**
 * What a dataset version stores, computed from a parsed table and the user's choices (issue 3
 * "Save stores an immutable dataset version"). Pure: the caller parsed the file (on the server)
 * and writes the result (db/queries/datasets.ts).
 *
 * Order: check mapping, corrections and exclusions → apply corrections → redact every column →
 * map the redacted rows (problems and blocked rows of exactly what is stored).
 */
import { applyCorrections, applyMapping, validateMapping, type ColumnMapping } from "@/lib/import/mapping";
import { DEFAULT_REDACTION, keepListProblems, type RedactionSettings } from "@/lib/import/redact/settings";
import { redactTable, type RedactionReport } from "@/lib/import/redact/table";
import type { ImportProblem, ImportTable } from "@/lib/import/types";
import { correctionProblems, effectiveCorrections } from "./corrections";
import { DatasetError } from "./errors";
import { rowsToRecords } from "./stored-table";
import type { Corrections, StoredRedactionReport } from "./types";

/** The user's choices for one save. */
export interface PrepareOptions {
  mapping: ColumnMapping;
  corrections?: Corrections;
  excludedRows?: number[];
  /** Variables the prompt templates use (rows lacking one get a warning; nothing is invented). */
  templateVariables?: string[];
  /** How many redacted sample cells the stored report keeps (default 20). */
  previewLimit?: number;
  /** The dataset's redaction settings (default: on, nothing kept). */
  redaction?: RedactionSettings;
}

/** Everything a version row stores besides the file itself. */
export interface PreparedVersion {
  columns: string[];
  /** One assignment per column, in column order (a column the user left out is `extra`). */
  mapping: ColumnMapping;
  /** The rows after corrections and redaction, keyed by column name. */
  records: Record<string, string>[];
  rowCount: number;
  /** Only the corrections that change a cell. */
  corrections: Corrections;
  /** Excluded data-row numbers, ascending, without repeats. */
  excludedRows: number[];
  redaction: StoredRedactionReport;
  /** Parse problems, then the mapping's problems on the stored rows. */
  problems: ImportProblem[];
  /** Rows that cannot become golden cases until corrected or excluded. */
  blockedRows: number[];
}

/**
 * A mapping with exactly one assignment per column of the table, in column order. Columns the
 * mapping leaves out become `extra`; candidate and variable names are trimmed, and dropped for
 * roles that do not use them.
 * @param columns the table's column names
 * @param mapping the mapping as given (assumed free of unknown or repeated columns)
 */
export function completeMapping(columns: readonly string[], mapping: ColumnMapping): ColumnMapping {
  const byColumn = new Map(mapping.map((a) => [a.column, a]));
  return columns.map((column) => {
    const a = byColumn.get(column);
    if (!a) return { column, role: "extra" };
    if (a.role === "actual_output") return { column, role: a.role, candidate: a.candidate?.trim() ?? "" };
    if (a.role === "variable") return { column, role: a.role, variable: a.variable?.trim() ?? "" };
    return { column, role: a.role };
  });
}

/**
 * Errors of the mapping itself (unknown or repeated columns, a role given twice, a missing
 * candidate or variable name, no input or expected column) — they block any save.
 * @param columns the table's column names
 * @param mapping the mapping to check
 */
export function mappingErrors(columns: readonly string[], mapping: ColumnMapping): ImportProblem[] {
  return validateMapping(columns, mapping).filter((p) => p.severity === "error");
}

/** The import core's report without the personal data of the sample cells. */
export function storedReport(report: RedactionReport): StoredRedactionReport {
  return {
    totals: report.totals,
    columns: report.columns,
    changedCells: report.changedCells,
    changedRows: report.changedRows,
    preview: report.preview.map(({ row, column, after }) => ({ row, column, after })),
    settings: report.settings,
    kept: report.kept,
  };
}

/**
 * Builds what a version stores.
 * @param table the table parsed from the uploaded file (not modified)
 * @param options mapping, corrections, exclusions, template variables
 * @returns the version's content, with its problems and blocked rows
 * @throws DatasetError `needs_sheet` for a workbook without a chosen sheet; `invalid_mapping`
 *   when the mapping has errors; `invalid_corrections` when a correction or exclusion names a row
 *   or column the file does not have; `invalid_redaction` for a keep-list that cannot be used
 */
export function prepareVersion(table: ImportTable, options: PrepareOptions): PreparedVersion {
  if (table.needsSheet) {
    throw new DatasetError("needs_sheet", `${table.fileName} has several worksheets; choose the one that holds the cases.`);
  }
  const errors = mappingErrors(table.columns, options.mapping);
  if (errors.length > 0) {
    throw new DatasetError("invalid_mapping", `The column mapping cannot be saved: ${errors.map((p) => p.message).join(" ")}`);
  }
  const corrections = options.corrections ?? {};
  const excluded = [...new Set(options.excludedRows ?? [])].sort((a, b) => a - b);
  const bad = correctionProblems(table, corrections, excluded);
  if (bad.length > 0) throw new DatasetError("invalid_corrections", bad.join(" "));

  const redaction = options.redaction ?? DEFAULT_REDACTION;
  const keepProblems = keepListProblems(redaction.keep);
  if (keepProblems.length > 0) throw new DatasetError("invalid_redaction", keepProblems.join(" "));

  const kept = effectiveCorrections(table, corrections);
  const { table: redacted, report } = redactTable(applyCorrections(table, kept), {
    previewLimit: options.previewLimit ?? 20,
    enabled: redaction.enabled,
    keep: redaction.keep,
  });
  const mapping = completeMapping(table.columns, options.mapping);
  const mapped = applyMapping(redacted, mapping, { excludedRows: excluded, templateVariables: options.templateVariables });
  return {
    columns: [...table.columns],
    mapping,
    records: rowsToRecords(redacted.columns, redacted.rows),
    rowCount: redacted.rows.length,
    corrections: kept,
    excludedRows: mapped.excludedRows,
    redaction: storedReport(report),
    problems: [...table.problems, ...mapped.problems],
    blockedRows: mapped.blockedRows,
  };
}
