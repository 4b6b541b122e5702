/**
 * JSON → table (issue 3): the file is an array of objects, or an object holding one such array
 * (e.g. `{"data": [...]}`; the key is reported). Items that are not objects are reported with their
 * line and not imported. A `.json` file that is really JSON Lines (several values, one per line) is
 * read as JSON Lines with a warning. Cells: see objects.ts. Numbers keep their source text.
 */
import { decodeText } from "./decode";
import { ImportError } from "./errors";
import { JsonSyntaxError, lineColumnAt, parseRawJson, type RawJson } from "./json-raw";
import { parseJsonlText } from "./jsonl";
import { LineCounter } from "./lines";
import type { ImportLimits } from "./limits";
import { ObjectRows, describeKind } from "./objects";
import type { ImportProblem, ImportTable, TextEncodingName } from "./types";

/** Options of {@link parseJson}. */
export interface JsonOptions {
  encoding?: TextEncodingName;
  /** The key of the array of rows when the top-level object holds several arrays. */
  jsonKey?: string;
}

/**
 * Parses JSON bytes.
 * @param bytes file content
 * @param fileName for messages
 * @param limits row, column and depth limits
 * @param options forced encoding, array key
 * @returns the table (`format: "json"`, or `"jsonl"` when the file turned out to be JSON Lines)
 * @throws ImportError `empty_file`, `corrupt` (syntax error, with line and column),
 *   `unsupported_shape` (not an array of objects / ambiguous object), `too_many_rows`, `too_many_columns`
 */
export function parseJson(bytes: Uint8Array, fileName: string, limits: ImportLimits, options: JsonOptions = {}): ImportTable {
  const decoded = decodeText(bytes, fileName, options.encoding);
  const text = decoded.text;
  if (text.trim() === "") throw new ImportError("empty_file", fileName, `${fileName} is empty.`);
  let root: RawJson;
  try {
    root = parseRawJson(text, limits.maxJsonDepth);
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    if (e.message.startsWith("unexpected content after") && looksLikeJsonLines(text, limits.maxJsonDepth)) {
      const table = parseJsonlText(text, fileName, limits, decoded.encoding);
      table.problems.unshift({
        severity: "warning",
        code: "read_as_jsonl",
        message: `${fileName} holds one JSON value per line, so it was read as JSON Lines.`,
      });
      return table;
    }
    const { line, column } = lineColumnAt(text, e.offset);
    throw new ImportError("corrupt", fileName, `${fileName} is not valid JSON: ${e.message} at line ${line}, column ${column}.`, {
      cause: e,
    });
  }

  const problems: ImportProblem[] = [];
  if (decoded.encoding === "windows-1252") {
    problems.push({ severity: "warning", code: "encoding_fallback", message: `${fileName} is not valid UTF-8; it was read as Windows-1252.` });
  }
  const items = findRowArray(root, fileName, options.jsonKey, problems);
  const lines = new LineCounter(text);
  const builder = new ObjectRows(fileName, limits);
  let objects = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const line = lines.lineAt(item.start);
    if (item.kind === "object") {
      objects++;
      builder.add(item, line);
    } else {
      problems.push({
        severity: "error",
        code: "not_an_object",
        line,
        message: `Item ${i + 1} (line ${line}) is ${describeKind(item)}, not an object; it was not imported.`,
      });
    }
  }
  if (objects === 0 && items.length > 0) {
    throw new ImportError("unsupported_shape", fileName, `${fileName} must be an array of objects (one object per row), but its items are not objects.`);
  }
  return builder.finish("json", decoded.encoding, problems);
}

function findRowArray(root: RawJson, fileName: string, jsonKey: string | undefined, problems: ImportProblem[]): RawJson[] {
  if (root.kind === "array") return root.items;
  if (root.kind !== "object") {
    throw new ImportError("unsupported_shape", fileName, `${fileName} holds ${describeKind(root)}; expected an array of objects (one object per row).`);
  }
  const arrays = root.entries.filter(([, v]) => v.kind === "array" && (v.items.length === 0 || v.items.some((x) => x.kind === "object")));
  if (jsonKey !== undefined) {
    const hit = [...root.entries].reverse().find(([k]) => k === jsonKey);
    if (!hit || hit[1].kind !== "array") {
      throw new ImportError("unsupported_shape", fileName, `${fileName} has no array under the key "${jsonKey}".`);
    }
    return hit[1].items;
  }
  const keys = [...new Set(arrays.map(([k]) => k))];
  if (keys.length === 1) {
    const hit = [...arrays].reverse().find(([k]) => k === keys[0])!;
    if (root.entries.length > 1) {
      problems.push({
        severity: "warning",
        code: "rows_from_key",
        message: `Rows were read from the array under "${keys[0]}"; the other top-level keys were not imported.`,
      });
    }
    return (hit[1] as Extract<RawJson, { kind: "array" }>).items;
  }
  if (keys.length === 0) {
    throw new ImportError(
      "unsupported_shape",
      fileName,
      `${fileName} is an object without an array of objects; expected an array of objects (one object per row).`,
    );
  }
  throw new ImportError(
    "unsupported_shape",
    fileName,
    `${fileName} holds several arrays of objects (${keys.map((k) => `"${k}"`).join(", ")}); choose which one holds the rows.`,
  );
}

function looksLikeJsonLines(text: string, maxDepth: number): boolean {
  const first = text.split(/\r\n|\r|\n/, 1)[0];
  try {
    return parseRawJson(first, maxDepth).kind === "object";
  } catch {
    return false;
  }
}
