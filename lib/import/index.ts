/**
 * Public API of the import core (DESIGN.md §5). Pure: bytes in, data out — no files, database,
 * framework or environment access. Typical flow in a shell:
 *
 *   const table = await parseFile(bytes, name, { limits });   // or inspect(...) for the CLI
 *   // table.needsSheet → ask for a sheet among table.sheets, then parse again with { sheet }
 *   // a title above the header: const table2 = withHeaderRow(table, detectHeaderRow(table) ?? 0)
 *   const mapping = suggestMapping(table.columns, { sampleRows: table.rows.slice(0, 20) });
 *   const preview = applyMapping(table, mapping, { corrections, excludedRows, templateVariables });
 *   const shown = previewRedaction(table);                    // before saving
 *   const { table: stored, report } = redactTable(applyCorrections(table, corrections), { enabled, keep }); // on save
 *
 * Bundles: `index` loads every part (SheetJS and zod included). Shells that care about start-up
 * memory can import the modules they use (parse.ts loads SheetJS only for workbooks).
 */
export { ImportError, isImportError, formatBytes, formatCount, type ImportErrorCode } from "./errors";
export { DEFAULT_LIMITS, resolveLimits, type ImportLimits } from "./limits";
export type { CsvDelimiter, ImportFormat, ImportProblem, ImportTable, ParseOptions, ProblemSeverity, SheetInfo, TextEncodingName } from "./types";
export { parseFile } from "./parse";
export { detectFormat } from "./format";
export { decodeText, type DecodedText } from "./decode";
export { parseCsv, detectDelimiter, CSV_DELIMITERS } from "./csv";
export { parseJson } from "./json";
export { parseJsonl } from "./jsonl";
export { parseXlsx } from "./xlsx";
export { readZipDirectory, verifyZipSizes, guardZip, type ZipDirectory, type ZipEntryInfo } from "./zip-guard";
export { uniqueHeaders } from "./headers";
export { parseHistory, type ParsedHistory } from "./history";
export {
  COLUMN_ROLES,
  ROLE_LABEL,
  SINGLE_ROLES,
  applyCorrections,
  applyMapping,
  splitTags,
  validateMapping,
  type ApplyMappingOptions,
  type CaseDraft,
  type ColumnAssignment,
  type ColumnMapping,
  type ColumnRole,
  type MappingResult,
} from "./mapping";
export { columnAssignmentSchema, columnMappingSchema } from "./mapping-schema";
export { suggestMapping, normalizeName, outputCandidateName, type SuggestOptions } from "./suggest";
export { PII_TYPES, PII_LABEL, findPii, type PiiMatch, type PiiType } from "./redact/detectors";
export { RowRedactor, redactString, type PiiCounts } from "./redact/redact";
export { redactTable, previewRedaction, type RedactionOptions, type RedactionPreviewCell, type RedactionReport } from "./redact/table";
export { DEFAULT_REDACTION, KEEP_ENTRY_MAX, KEEP_LIST_MAX, KeepList, keepListProblems, parseKeepList, type RedactionSettings } from "./redact/settings";
export { detectHeaderRow, headerChoices, headerRowProblem, withHeaderRow, type HeaderChoice } from "./header-row";
export { parseVariablesCell, type ParsedVariables } from "./variables-json";
export { toCsv, toJsonl, tableRecords, FORMULA_START, type CsvExportOptions, type ExportRow } from "./export";
export { inspect, type InspectOptions, type InspectResult } from "./inspect";
