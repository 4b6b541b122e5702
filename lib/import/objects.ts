/**
 * JSON objects → table rows, shared by json.ts and jsonl.ts (issue 3): columns are the union of
 * keys in first-seen order; each value becomes a cell by {@link rawJsonToCell} (strings as is,
 * numbers/booleans as source text, null as empty, nested values as compact JSON text). Keys are
 * kept exactly (not trimmed); an empty key becomes `column_N`. A key repeated inside one object
 * keeps the last value (like `JSON.parse`) with a warning.
 */
import { ImportError, formatCount } from "./errors";
import { uniqueHeaders } from "./headers";
import { objectEntries, rawJsonToCell, type RawJson } from "./json-raw";
import type { ImportLimits } from "./limits";
import { RowCollector, isEmptyRow } from "./rows";
import type { ImportFormat, ImportProblem, ImportTable, TextEncodingName } from "./types";

/** Builds a table from JSON objects, one object per data row. */
export class ObjectRows {
  private readonly keyIndex = new Map<string, number>();
  private readonly keys: string[] = [];
  readonly problems: ImportProblem[] = [];
  private readonly collector: RowCollector;

  /**
   * @param fileName for messages
   * @param limits row and column limits
   */
  constructor(
    private readonly fileName: string,
    private readonly limits: ImportLimits,
  ) {
    this.collector = new RowCollector(fileName, limits.maxRows, "line", this.problems, isEmptyRow);
  }

  /**
   * Adds one object as a data row.
   * @param node an object node
   * @param line physical line where the object starts
   * @throws ImportError `too_many_rows`, `too_many_columns`
   */
  add(node: Extract<RawJson, { kind: "object" }>, line: number): void {
    const { entries, duplicates } = objectEntries(node);
    const cells: string[] = new Array(this.keys.length).fill("");
    for (const [key, value] of entries) {
      let j = this.keyIndex.get(key);
      if (j === undefined) {
        j = this.keys.length;
        if (j >= this.limits.maxColumns) {
          throw new ImportError(
            "too_many_columns",
            this.fileName,
            `${this.fileName} has more than ${formatCount(this.limits.maxColumns)} different keys; the limit is ${formatCount(this.limits.maxColumns)} columns.`,
            { limit: this.limits.maxColumns, actual: j + 1 },
          );
        }
        this.keyIndex.set(key, j);
        this.keys.push(key);
      }
      while (cells.length <= j) cells.push("");
      cells[j] = rawJsonToCell(value);
    }
    const rowNumber = this.collector.count + 1;
    for (const d of duplicates) {
      this.problems.push({
        severity: "warning",
        code: "duplicate_key",
        line,
        row: rowNumber,
        message: `Line ${line}: key "${d}" appears more than once in the object; the last value is kept.`,
      });
    }
    this.collector.add(cells, line);
  }

  /** Number of data rows so far. */
  get count(): number {
    return this.collector.count;
  }

  /**
   * Finishes the table: pads rows to the full column list and makes key names into column names.
   * @param format `json` or `jsonl`
   * @param encoding the text encoding used
   * @param extraProblems problems found by the caller (merged and sorted by line)
   */
  finish(format: ImportFormat, encoding: TextEncodingName, extraProblems: ImportProblem[]): ImportTable {
    const { columns, problems: headerProblems } = uniqueHeaders(this.keys, {}, false);
    const width = columns.length;
    const rows = this.collector.rows;
    for (const r of rows) while (r.length < width) r.push("");
    const problems = [...headerProblems, ...extraProblems, ...this.problems];
    const key = (p: ImportProblem) => p.line ?? 0;
    problems.sort((a, b) => key(a) - key(b));
    if (rows.length === 0) {
      problems.push({ severity: "warning", code: "no_rows", message: `${this.fileName} has no data rows.` });
    }
    return {
      fileName: this.fileName,
      format,
      encoding,
      columns,
      rows,
      sourceKind: "line",
      rowSources: this.collector.sources,
      problems,
    };
  }
}

/** A short name for the kind of a JSON value, for messages ("a string", "an array", …). */
export function describeKind(node: RawJson): string {
  switch (node.kind) {
    case "array":
      return "an array";
    case "object":
      return "an object";
    case "null":
      return "null";
    default:
      return `a ${node.kind}`;
  }
}
