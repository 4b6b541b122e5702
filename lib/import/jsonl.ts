/**
 * JSON Lines → table (issue 3): one JSON object per line; blank lines are skipped; a line that is
 * not valid JSON, or valid JSON that is not an object, is reported as an error with its line number
 * and is not a data row. Line ends may be `\n`, `\r\n` or lone `\r`. Cells: see objects.ts.
 */
import { decodeText } from "./decode";
import { ImportError } from "./errors";
import { JsonSyntaxError, parseRawJson } from "./json-raw";
import type { ImportLimits } from "./limits";
import { ObjectRows, describeKind } from "./objects";
import type { ImportProblem, ImportTable, TextEncodingName } from "./types";

/**
 * Parses JSONL bytes.
 * @param bytes file content
 * @param fileName for messages
 * @param limits row, column and depth limits
 * @param encoding force a text encoding
 * @returns the table (`format: "jsonl"`)
 * @throws ImportError `empty_file`, `too_many_rows`, `too_many_columns`, `corrupt` (no line is an object)
 */
export function parseJsonl(bytes: Uint8Array, fileName: string, limits: ImportLimits, encoding?: TextEncodingName): ImportTable {
  const decoded = decodeText(bytes, fileName, encoding);
  return parseJsonlText(decoded.text, fileName, limits, decoded.encoding);
}

/** Parses decoded JSONL text; see {@link parseJsonl}. `encoding` is only reported. */
export function parseJsonlText(text: string, fileName: string, limits: ImportLimits, encoding: TextEncodingName): ImportTable {
  if (text.trim() === "") throw new ImportError("empty_file", fileName, `${fileName} is empty.`);
  const builder = new ObjectRows(fileName, limits);
  const problems: ImportProblem[] = [];
  if (encoding === "windows-1252") {
    problems.push({
      severity: "warning",
      code: "encoding_fallback",
      message: `${fileName} is not valid UTF-8; it was read as Windows-1252.`,
    });
  }
  let bad = 0;
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const line = lines[i];
    if (line.trim() === "") continue;
    let node;
    try {
      node = parseRawJson(line, limits.maxJsonDepth);
    } catch (e) {
      if (!(e instanceof JsonSyntaxError)) throw e;
      bad++;
      problems.push({
        severity: "error",
        code: "invalid_json_line",
        line: lineNo,
        message: `Line ${lineNo} is not valid JSON (${e.message} at column ${e.offset + 1}); it was not imported.`,
      });
      continue;
    }
    if (node.kind !== "object") {
      bad++;
      problems.push({
        severity: "error",
        code: "not_an_object",
        line: lineNo,
        message: `Line ${lineNo} is ${describeKind(node)}, not a JSON object; it was not imported.`,
      });
      continue;
    }
    builder.add(node, lineNo);
  }
  if (builder.count === 0 && bad > 0) {
    throw new ImportError(
      "corrupt",
      fileName,
      `${fileName} has no line that is a JSON object (${bad} unreadable line${bad === 1 ? "" : "s"}); it is not JSON Lines.`,
    );
  }
  return builder.finish("jsonl", encoding, problems);
}
