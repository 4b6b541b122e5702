/**
 * CSV (and TSV / other delimited text) → table. The CSV grammar is papaparse's (RFC 4180 quoting:
 * quoted fields may hold delimiters, doubled quotes and line breaks); this module adds the issue-3
 * rules around it:
 * - text is decoded by decode.ts (BOM removed, UTF-8 / UTF-16 / Windows-1252);
 * - line ends: CRLF, LF and lone CR may be mixed; all are read as line breaks, and a line break
 *   inside a quoted cell is stored as `\n` (whatever it was in the file);
 * - the delimiter is detected among comma, semicolon, tab and pipe (see {@link detectDelimiter})
 *   and reported;
 * - the first non-empty record is the header (headers.ts makes the names unique);
 * - rows with too few fields are padded with empty cells (warning); rows with too many fields keep
 *   the extra values in added columns `column_N` (error), or drop them when they are all empty
 *   (warning) — every one reported with the line where the record starts;
 * - blank rows (every field empty or whitespace only): see rows.ts.
 */
import Papa from "papaparse";
import { decodeText } from "./decode";
import { ImportError, formatCount } from "./errors";
import { freeName, uniqueHeaders } from "./headers";
import type { ImportLimits } from "./limits";
import { RowCollector, isBlankRow } from "./rows";
import type { CsvDelimiter, ImportProblem, ImportTable, TextEncodingName } from "./types";

/** Delimiters tried by detection, in order of preference on a tie. */
export const CSV_DELIMITERS: readonly CsvDelimiter[] = [",", ";", "\t", "|"];

/** Options of {@link parseCsv}. */
export interface CsvOptions {
  delimiter?: CsvDelimiter;
  encoding?: TextEncodingName;
}

/**
 * Parses CSV bytes.
 * @param bytes file content (any size up to the caller's byte limit, already checked)
 * @param fileName for messages
 * @param limits row and column limits
 * @param options forced delimiter / encoding
 * @returns the table with `format: "csv"`, `encoding`, `delimiter`, and line-numbered problems
 * @throws ImportError `empty_file`, `too_many_rows`, `too_many_columns`
 */
export function parseCsv(bytes: Uint8Array, fileName: string, limits: ImportLimits, options: CsvOptions = {}): ImportTable {
  const decoded = decodeText(bytes, fileName, options.encoding);
  return parseCsvText(decoded.text, fileName, limits, {
    delimiter: options.delimiter,
    encoding: decoded.encoding,
  });
}

/**
 * Parses already-decoded CSV text (see {@link parseCsv}). `encoding` is only reported.
 * @throws ImportError `empty_file`, `too_many_rows`, `too_many_columns`
 */
export function parseCsvText(
  input: string,
  fileName: string,
  limits: ImportLimits,
  options: { delimiter?: CsvDelimiter; encoding: TextEncodingName },
): ImportTable {
  // Line ends: LF-only text is parsed as is. When every CR belongs to a CRLF, the text is parsed
  // with "\n" as the line end and the CRs are removed from the cells afterwards (no copy of the
  // whole text: this keeps peak memory near one copy of the file). Lone CRs (old Mac files, or a
  // mix) make us normalise the whole text to "\n" first.
  let text = input;
  let crlf = false;
  if (input.indexOf("\r") !== -1) {
    if (/\r(?!\n)/.test(input)) text = input.replace(/\r\n?/g, "\n");
    else crlf = true;
  }
  if (text.trim() === "") throw new ImportError("empty_file", fileName, `${fileName} is empty.`);
  const problems: ImportProblem[] = [];
  if (options.encoding === "windows-1252") {
    problems.push({
      severity: "warning",
      code: "encoding_fallback",
      message: `${fileName} is not valid UTF-8; it was read as Windows-1252.`,
    });
  }
  const delimiter = options.delimiter ?? detectDelimiter(text);

  let columns: string[] | null = null;
  let headerWidth = 0;
  let headerLine = 1;
  const taken = new Set<string>();
  const collector = new RowCollector(fileName, limits.maxRows, "line", problems);

  // Line bookkeeping: records arrive in order; count "\n" between record starts.
  let recordStart = 0;
  let line = 1;
  let countedTo = 0;
  const lineAt = (offset: number): number => {
    let i = text.indexOf("\n", countedTo);
    while (i !== -1 && i < offset) {
      line++;
      i = text.indexOf("\n", i + 1);
    }
    countedTo = offset;
    return line;
  };
  const leadingEmpty: number[] = [];

  Papa.parse<string[]>(text, {
    delimiter,
    newline: "\n",
    quoteChar: '"',
    escapeChar: '"',
    header: false,
    dynamicTyping: false,
    skipEmptyLines: false,
    step: (results) => {
      const start = recordStart;
      recordStart = results.meta.cursor;
      const fields = results.data as unknown as string[];
      for (let j = 0; j < fields.length; j++) {
        let f = fields[j];
        // papaparse un-escapes "" with String.replace, which yields a rope of many small strings
        // (about 4× the memory of the text); reading one character flattens it in place.
        f.charCodeAt(0);
        if (crlf && f.indexOf("\r") !== -1) {
          f = f.replace(/\r\n/g, "\n");
          if (j === fields.length - 1 && f.endsWith("\r")) f = f.slice(0, -1);
          fields[j] = f;
        }
      }
      const at = lineAt(start);
      for (const err of results.errors) {
        if (err.code === "MissingQuotes") {
          problems.push({
            severity: "error",
            code: "unclosed_quote",
            line: at,
            message: `Line ${at}: a quoted field is never closed, so the rest of the file was read into it.`,
          });
        } else if (err.code === "InvalidQuotes") {
          problems.push({
            severity: "warning",
            code: "invalid_quotes",
            line: at,
            message: `Line ${at}: a quoted field has text after its closing quote; the text was kept as written.`,
          });
        }
      }
      if (columns === null) {
        if (isBlankRow(fields)) {
          leadingEmpty.push(at);
          return;
        }
        if (fields.length > limits.maxColumns) throw tooManyColumns(fileName, limits.maxColumns, fields.length);
        const unique = uniqueHeaders(fields, { line: at });
        columns = unique.columns;
        headerWidth = columns.length;
        headerLine = at;
        for (const c of columns) taken.add(c);
        problems.push(...unique.problems);
        for (const l of leadingEmpty) {
          problems.push({ severity: "warning", code: "empty_row", line: l, message: `Line ${l} is empty and was skipped.` });
        }
        return;
      }
      if (isBlankRow(fields)) {
        collector.add(fields, at);
        return;
      }
      const cols: string[] = columns;
      const rowNumber = collector.count + 1;
      let cells = fields;
      if (fields.length < headerWidth) {
        problems.push({
          severity: "warning",
          code: "ragged_row",
          line: at,
          row: rowNumber,
          message: `Line ${at} has ${fields.length} field${fields.length === 1 ? "" : "s"} but the header has ${headerWidth}; the missing cells are empty.`,
        });
      } else if (fields.length > headerWidth) {
        let lastFilled = fields.length - 1;
        while (lastFilled >= headerWidth && fields[lastFilled] === "") lastFilled--;
        if (lastFilled < headerWidth) {
          problems.push({
            severity: "warning",
            code: "ragged_row",
            line: at,
            row: rowNumber,
            message: `Line ${at} has ${fields.length} fields but the header has ${headerWidth}; the extra fields are empty and were ignored.`,
          });
          cells = fields.slice(0, headerWidth);
        } else {
          const width = lastFilled + 1;
          if (width > limits.maxColumns) throw tooManyColumns(fileName, limits.maxColumns, width);
          const added: string[] = [];
          while (cols.length < width) {
            const name = freeName(`column_${cols.length + 1}`, taken, true);
            taken.add(name);
            cols.push(name);
          }
          for (let j = headerWidth; j < width; j++) if (fields[j] !== "") added.push(cols[j]);
          problems.push({
            severity: "error",
            code: "ragged_row",
            line: at,
            row: rowNumber,
            message: `Line ${at} has ${fields.length} fields but the header has ${headerWidth}; the extra values are kept in ${added.map((c) => `"${c}"`).join(", ")}. Check the delimiter and quoting of this line.`,
          });
          cells = fields.length > width ? fields.slice(0, width) : fields;
        }
      }
      // papaparse's row arrays carry spare capacity; an exact copy saves memory on big files.
      collector.add(cells === fields ? fields.slice() : cells, at);
    },
  });

  if (columns === null) throw new ImportError("empty_file", fileName, `${fileName} is empty.`);
  const finalColumns: string[] = columns;
  const width = finalColumns.length;
  const rows = collector.rows;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    if (r.length < width) {
      const padded = r.slice();
      while (padded.length < width) padded.push("");
      rows[i] = padded;
    }
  }
  if (rows.length === 0) {
    problems.push({ severity: "warning", code: "no_rows", message: `${fileName} has a header but no data rows.` });
  }
  sortProblems(problems);
  return {
    fileName,
    format: "csv",
    encoding: options.encoding,
    delimiter,
    columns: finalColumns,
    rows,
    headerSource: headerLine,
    headerWidth,
    sourceKind: "line",
    rowSources: collector.sources,
    problems,
  };
}

/**
 * Picks the delimiter among comma, semicolon, tab and pipe from the first 30 records of a 64 KB
 * sample: a candidate must split the header into ≥ 2 fields; the best is the one whose data rows
 * most often have exactly the header's field count, then the one giving more fields, then the
 * earlier in {@link CSV_DELIMITERS}. With no candidate (a one-column file) the comma is used.
 * @param text decoded text with `\n` line ends
 */
export function detectDelimiter(text: string): CsvDelimiter {
  const sample = text.length > 65536 ? text.slice(0, 65536) : text;
  const truncated = sample.length < text.length;
  let best: { d: CsvDelimiter; consistency: number; width: number } | null = null;
  for (const d of CSV_DELIMITERS) {
    if (sample.indexOf(d) === -1) continue;
    const result = Papa.parse<string[]>(sample, { delimiter: d, newline: "\n", quoteChar: '"', preview: 31, skipEmptyLines: false });
    const records = (result.data as string[][]).filter((r) => !isBlankRow(r));
    if (truncated && records.length > 1) records.pop();
    if (records.length === 0) continue;
    const width = records[0].length;
    if (width < 2) continue;
    const data = records.slice(1);
    const consistency = data.length === 0 ? 1 : data.filter((r) => r.length === width).length / data.length;
    if (!best || consistency > best.consistency || (consistency === best.consistency && width > best.width)) {
      best = { d, consistency, width };
    }
  }
  return best ? best.d : ",";
}

function tooManyColumns(fileName: string, limit: number, actual: number): ImportError {
  return new ImportError("too_many_columns", fileName, `${fileName} has ${formatCount(actual)} columns; the limit is ${formatCount(limit)} columns.`, {
    limit,
    actual,
  });
}

/** Orders problems by line, then row (file-level problems first). Stable. */
export function sortProblems(problems: ImportProblem[]): void {
  const key = (p: ImportProblem) => p.line ?? p.sheetRow ?? p.row ?? 0;
  problems.sort((a, b) => key(a) - key(b));
}
