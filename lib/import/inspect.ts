/**
 * `inspect` — the object `benchwork dataset inspect --json` prints: the parsed table, its
 * problems and a suggested mapping, in one JSON-serialisable value.
 */
import { tableRecords } from "./export";
import { detectHeaderRow, withHeaderRow } from "./header-row";
import { applyMapping, type ColumnMapping } from "./mapping";
import { parseFile } from "./parse";
import { previewRedaction, type RedactionOptions, type RedactionReport } from "./redact/table";
import { suggestMapping } from "./suggest";
import type { CsvDelimiter, ImportFormat, ImportProblem, ParseOptions, SheetInfo, TextEncodingName } from "./types";

/** Options of {@link inspect}: parse options plus template variables and an optional redaction preview. */
export interface InspectOptions extends ParseOptions {
  /** Variables of the target prompt's template: used for the suggestion and the row checks. */
  templateVariables?: string[];
  /** Also compute the redaction report (`redaction` key). `true` = default options. */
  redact?: boolean | RedactionOptions;
  /**
   * CSV/XLSX: the line (CSV) or sheet row (XLSX) of the header; 0 = the first non-empty row, as
   * read. Default: detected (header-row.ts `detectHeaderRow`: a title above the header).
   */
  headerRow?: number;
}

/**
 * The inspect result. Keys present for every format: `format`, `encoding`, `columns`,
 * `rowCount`, `rows`, `problems`, `suggestedMapping`. CSV adds `delimiter`; XLSX adds `sheets`,
 * `sheet` and `needsSheet`; both add `headerRow` (where the header is) and `headerDetected`. `rows` holds every data row as an object keyed by stored column
 * name with the cell text exactly as parsed (before redaction). `problems` are the parse problems
 * followed by the problems of the suggested mapping (missing input/expected, unreadable history,
 * repeated case IDs, missing template variables).
 */
export interface InspectResult {
  format: ImportFormat;
  encoding: TextEncodingName | null;
  delimiter?: CsvDelimiter;
  sheets?: SheetInfo[];
  sheet?: string | null;
  needsSheet?: boolean;
  /** CSV/XLSX: the line (CSV) or sheet row (XLSX) of the header used. */
  headerRow?: number;
  /** CSV/XLSX: true when the header was moved below the first row because it was detected. */
  headerDetected?: boolean;
  columns: string[];
  rowCount: number;
  rows: Record<string, string>[];
  problems: ImportProblem[];
  suggestedMapping: ColumnMapping;
  redaction?: RedactionReport;
}

/**
 * Parses a file and describes it.
 * @param bytes file content
 * @param fileName uploaded file name
 * @param options parse options (limits, sheet, …), template variables, redaction preview
 * @returns the inspect object (see {@link InspectResult}); for a workbook that needs a sheet
 *   choice: the sheet list, `needsSheet: true`, no rows and an error problem saying so
 * @throws ImportError when the file is refused (too large, too many rows, corrupt, zip bomb, …)
 *   or `header_row_not_found` for a header row the table does not have
 */
export async function inspect(bytes: Uint8Array, fileName: string, options: InspectOptions = {}): Promise<InspectResult> {
  const parsed = await parseFile(bytes, fileName, options);
  const detected = options.headerRow === undefined ? detectHeaderRow(parsed) : null;
  const table = withHeaderRow(parsed, options.headerRow ?? detected ?? 0);
  const out: InspectResult = { format: table.format, encoding: table.encoding } as InspectResult;
  if (table.format === "csv") out.delimiter = table.delimiter;
  if (table.format === "xlsx") {
    out.sheets = table.sheets;
    out.sheet = table.sheet ?? null;
    out.needsSheet = Boolean(table.needsSheet);
  }
  if (table.headerSource !== undefined) {
    out.headerRow = table.headerSource;
    out.headerDetected = detected !== null;
  }
  out.columns = table.columns;
  out.rowCount = table.rows.length;
  out.rows = tableRecords(table);
  if (table.needsSheet) {
    out.problems = table.problems;
    out.suggestedMapping = [];
    return out;
  }
  const suggestedMapping = suggestMapping(table.columns, {
    templateVariables: options.templateVariables,
    sampleRows: table.rows.slice(0, 20),
  });
  const mapped = applyMapping(table, suggestedMapping, { templateVariables: options.templateVariables });
  out.problems = [...table.problems, ...mapped.problems];
  out.suggestedMapping = suggestedMapping;
  if (options.redact) out.redaction = previewRedaction(table, options.redact === true ? {} : options.redact);
  return out;
}
