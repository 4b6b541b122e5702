/**
 * Cases from data files (issue #6): an eval's `cases` may be a path to a CSV or a JSONL file.
 *
 * - CSV is read by the import core (lib/import `parseFile`: BOM, delimiter detection, quoted line
 *   breaks, exact text cells), with limits raised for local files. Columns may only be `id`,
 *   `prompt`, `expected` and `description`; an empty cell counts as absent (the eval's value).
 * - JSONL is read here, one `JSON.parse` per line, because its cases carry typed values (a `tools`
 *   list, a `data` object, an `evaluate` declaration) that the import core would flatten to text.
 *   Blank lines are skipped.
 *
 * Row numbers: `row` is the 1-based data row (CSV: first row after the header; JSONL: the n-th
 * non-blank line), `line` the physical line where it starts. Pure: bytes in, rows out.
 */
import { parseFile } from "@/lib/import/parse";
import { isImportError } from "@/lib/import/errors";
import { CSV_COLUMNS } from "./fields";

/** One case row of a data file: its fields as written, and where it is. */
export interface DataRow {
  fields: Record<string, unknown>;
  row: number;
  line: number;
}

/** A problem in a data file, with the row and line when it concerns one. */
export interface DataProblem {
  row?: number;
  line?: number;
  message: string;
}

/** Rows and problems of one data file. Rows with problems are left out. */
export interface DataFileCases {
  rows: DataRow[];
  problems: DataProblem[];
}

/** Limits for local data files of a benchmark repository (larger than the upload defaults of §5). */
export const DATA_FILE_LIMITS = { maxBytes: 512 * 1024 * 1024, maxRows: 5_000_000, maxColumns: 50 } as const;

/** The kind of data file a path names, by extension; null when it is neither CSV nor JSONL. */
export function dataFileKind(file: string): "csv" | "jsonl" | null {
  const lower = file.toLowerCase();
  if (lower.endsWith(".csv")) return "csv";
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson")) return "jsonl";
  return null;
}

/**
 * Reads CSV case rows.
 * @param bytes the file content
 * @param fileName the file's path (for messages)
 * @returns rows with the non-empty cells of the allowed columns; problems for columns other than
 *   {@link CSV_COLUMNS} (naming the column and the allowed ones) and for malformed rows
 */
export async function readCsvCases(bytes: Uint8Array, fileName: string): Promise<DataFileCases> {
  let table;
  try {
    table = await parseFile(bytes, fileName, { format: "csv", limits: DATA_FILE_LIMITS });
  } catch (e) {
    return { rows: [], problems: [{ message: isImportError(e) ? e.message : `cannot be read as CSV: ${(e as Error).message}` }] };
  }
  const problems: DataProblem[] = [];
  const allowed = new Set<string>(CSV_COLUMNS);
  const bad = table.columns.filter((c) => !allowed.has(c));
  for (const c of bad) {
    problems.push({
      line: 1,
      message: `column "${c}" is not allowed: CSV cases may only have the columns ${CSV_COLUMNS.join(", ")} (use JSONL or inline cases for tools, systemPrompt, data or evaluate)`,
    });
  }
  const rowErrors = new Set<number>();
  for (const p of table.problems) {
    if (p.severity !== "error") continue;
    if (p.row !== undefined) rowErrors.add(p.row);
    problems.push({ ...(p.row !== undefined ? { row: p.row } : {}), ...(p.line !== undefined ? { line: p.line } : {}), message: p.message });
  }
  if (bad.length > 0) return { rows: [], problems };
  const rows: DataRow[] = [];
  table.rows.forEach((cells, i) => {
    const row = i + 1;
    if (rowErrors.has(row)) return;
    const fields: Record<string, unknown> = {};
    table.columns.forEach((c, j) => {
      if (cells[j] !== "") fields[c] = cells[j];
    });
    rows.push({ fields, row, line: table.rowSources[i] });
  });
  return { rows, problems };
}

/**
 * Reads JSONL case rows (one JSON object per non-blank line; UTF-8, a BOM is ignored).
 * @returns rows of parsed objects; problems for lines that are not JSON or not objects, and for a
 *   file that is not UTF-8
 */
export function readJsonlCases(bytes: Uint8Array, fileName: string): DataFileCases {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return { rows: [], problems: [{ message: `${fileName} is not valid UTF-8 text` }] };
  }
  const rows: DataRow[] = [];
  const problems: DataProblem[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  let row = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    if (lines[i].trim() === "") continue;
    row++;
    let value: unknown;
    try {
      value = JSON.parse(lines[i]);
    } catch (e) {
      problems.push({ row, line, message: `line ${line} is not valid JSON (${(e as Error).message})` });
      continue;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      problems.push({
        row,
        line,
        message: `line ${line} is ${Array.isArray(value) ? "a list" : value === null ? "null" : `a ${typeof value}`}, not a JSON object`,
      });
      continue;
    }
    rows.push({ fields: value as Record<string, unknown>, row, line });
  }
  if (rows.length === 0 && problems.length === 0) problems.push({ message: `${fileName} has no cases (every line is blank)` });
  return { rows, problems };
}
