/**
 * `benchwork dataset inspect FILE [--sheet NAME] [--header-row N] [--json]` — prints what the
 * importer sees: format, encoding, delimiter or sheets, the header row (detected below a title
 * unless `--header-row` says where it is), columns with their suggested roles, row count and problems.
 * `--json` prints one object (lib/import `inspect()`): format, encoding, delimiter (CSV), sheets
 * and sheet (XLSX), columns, rowCount, rows, problems, suggestedMapping.
 * Exit 0 when the file can be imported with the suggested mapping; 1 when the file is refused or
 * has error problems (printed); 2 on a usage error (missing file, unknown sheet).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { isImportError } from "@/lib/import/errors";
import { assignmentLabel } from "@/lib/datasets/labels";
import { DatasetError } from "@/lib/datasets/errors";
import { importLimitsFromEnv } from "@/server/import-limits";
import { inspectBounded } from "@/server/parse-bounded";
import { CliError, usage, type Io } from "../io";
import { printProblems, shortCell } from "./dataset-output";

/** Options of `dataset inspect`. */
export interface InspectCliOptions {
  sheet?: string;
  headerRow?: string;
  json?: boolean;
}

/**
 * The `--header-row` option as a number (a line or sheet row; 0 = as read), or undefined (detect).
 * @throws CliError (exit 2) when it is not a whole number ≥ 0
 */
export function headerRowOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,9}$/.test(value.trim())) throw usage(`--header-row: expected a line or sheet row number (0 = the first non-empty row), got "${value}"`);
  return Number(value.trim());
}

/**
 * Reads a data file for the CLI.
 * @throws CliError (exit 2) when it is missing or unreadable
 */
export function readDataFile(file: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(file));
  } catch (e) {
    throw usage(`${file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/**
 * Turns a refusal of the file into a CliError: an unknown `--sheet` is a usage error (2), any
 * other refusal of the file exit 1. Other errors are returned unchanged.
 */
export function fileRefusal(e: unknown): unknown {
  if (isImportError(e) && e.code === "header_row_not_found") return usage(`--header-row: ${e.message}`);
  if (e instanceof DatasetError && e.code === "header_row_not_found") return usage(`--header-row: ${e.message}`);
  if (isImportError(e)) return new CliError(e.message, e.code === "sheet_not_found" ? 2 : 1);
  if (e instanceof DatasetError && e.code.startsWith("parse_")) return new CliError(e.message, 1);
  return e;
}

/** Runs the command; returns the exit code. */
export async function datasetInspectCommand(file: string, o: InspectCliOptions, io: Io): Promise<number> {
  const bytes = readDataFile(file);
  const fileName = path.basename(file);
  let r;
  try {
    r = await inspectBounded(bytes, fileName, { sheet: o.sheet, headerRow: headerRowOption(o.headerRow), limits: importLimitsFromEnv() });
  } catch (e) {
    throw fileRefusal(e);
  }
  const blocking = r.problems.some((p) => p.severity === "error") || Boolean(r.needsSheet);
  if (o.json) {
    io.out(JSON.stringify(r, null, 2));
    return blocking ? 1 : 0;
  }
  const how = r.format === "csv" ? `, delimiter ${JSON.stringify(r.delimiter)}` : "";
  io.out(`${fileName}: ${r.format.toUpperCase()}${r.encoding ? `, ${r.encoding}` : ""}${how}`);
  if (r.sheets) {
    io.out(`Sheets: ${r.sheets.map((s) => `${s.name}${s.hidden ? " (hidden)" : ""}`).join(", ")}`);
    io.out(r.sheet ? `Reading sheet: ${r.sheet}` : "Several sheets are visible: choose one with --sheet NAME.");
  }
  if (!r.needsSheet) {
    if (r.headerRow !== undefined) {
      const where = `${r.format === "xlsx" ? "sheet row" : "line"} ${r.headerRow}`;
      io.out(
        `Header: ${where}${r.headerDetected ? ` (detected; ${r.format === "xlsx" ? "sheet rows" : "lines"} above it left out). --header-row 0 reads the first non-empty row as the header.` : ""}`,
      );
    }
    io.out(`${r.rowCount} data row(s), ${r.columns.length} column(s)`);
    io.out("Columns and suggested roles:");
    const width = Math.min(30, Math.max(...r.columns.map((c) => c.length), 6));
    r.columns.forEach((c) => {
      const a = r.suggestedMapping.find((x) => x.column === c) ?? { role: "extra" as const };
      const sample = r.rows.find((row) => (row[c] ?? "") !== "")?.[c];
      io.out(`  ${c.padEnd(width)}  ${assignmentLabel(a).padEnd(28)}${sample !== undefined ? `  e.g. ${JSON.stringify(shortCell(sample))}` : ""}`);
    });
  }
  printProblems(r.problems, io.out);
  return blocking ? 1 : 0;
}
