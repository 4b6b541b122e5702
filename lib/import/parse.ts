/**
 * The one entry point that turns an upload into a table (DESIGN.md §2: "one parsing path, server
 * authority"). Checks the byte limit before anything else, picks the parser (format.ts) and runs it.
 * Pure: takes bytes, returns data; never touches files, the database or the environment.
 */
import { parseCsv } from "./csv";
import { ImportError, formatBytes, formatCount } from "./errors";
import { detectFormat } from "./format";
import { parseJson } from "./json";
import { parseJsonl } from "./jsonl";
import { resolveLimits } from "./limits";
import type { ImportTable, ParseOptions } from "./types";

/**
 * Parses an uploaded file into a table of text cells.
 * @param bytes the file content
 * @param fileName the uploaded file name (decides the format; used in every message)
 * @param options limits (defaults: 4 MB, 5,000 data rows), forced format/encoding/delimiter, the
 *   worksheet to read, the JSON array key
 * @returns the table; for a workbook with several visible sheets and no `sheet` option, a table
 *   with `needsSheet: true` and the sheet list (nothing else is read)
 * @throws ImportError `too_large` (checked first, before decoding), and the codes of each parser:
 *   `too_many_rows`, `too_many_columns`, `corrupt`, `unsupported_format`, `unsupported_shape`,
 *   `zip_bomb`, `part_too_large`, `empty_file`, `sheet_not_found`
 */
export async function parseFile(bytes: Uint8Array, fileName: string, options: ParseOptions = {}): Promise<ImportTable> {
  const limits = resolveLimits(options.limits);
  if (bytes.byteLength > limits.maxBytes) {
    throw new ImportError(
      "too_large",
      fileName,
      `${fileName} is ${formatBytes(bytes.byteLength)} (${formatCount(bytes.byteLength)} bytes); the limit is ${formatBytes(limits.maxBytes)} (${formatCount(limits.maxBytes)} bytes). Split the file or remove rows, then upload it again.`,
      { limit: limits.maxBytes, actual: bytes.byteLength },
    );
  }
  if (bytes.byteLength === 0) throw new ImportError("empty_file", fileName, `${fileName} is empty.`);
  const format = options.format ?? detectFormat(bytes, fileName);
  switch (format) {
    case "csv":
      return parseCsv(bytes, fileName, limits, { delimiter: options.delimiter, encoding: options.encoding });
    case "json":
      return parseJson(bytes, fileName, limits, { encoding: options.encoding, jsonKey: options.jsonKey });
    case "jsonl":
      return parseJsonl(bytes, fileName, limits, options.encoding);
    case "xlsx": {
      // SheetJS is large (~9 MB of heap once loaded): load it only for workbooks.
      const { parseXlsx } = await import("./xlsx");
      return parseXlsx(bytes, fileName, limits, { sheet: options.sheet });
    }
  }
}
