/**
 * Which parser reads a file (issue 3: CSV, XLSX, JSON, JSONL).
 * The file name's extension decides: `.csv` `.tsv` `.txt` → csv; `.xlsx` `.xlsm` → xlsx;
 * `.json` → json; `.jsonl` `.ndjson` → jsonl. Known spreadsheet formats we do not read (`.xls`,
 * `.xlsb`, `.ods`, `.numbers`) are refused by name. Without an extension the bytes decide: a ZIP
 * archive → xlsx; text starting with `[` → json; text whose first line is a JSON object → jsonl
 * when a second line is too, else json; anything else → csv. Other extensions are refused.
 */
import { ImportError } from "./errors";
import type { ImportFormat } from "./types";
import { looksLikeZip } from "./zip-guard";

const BY_EXTENSION: Record<string, ImportFormat> = {
  csv: "csv",
  tsv: "csv",
  txt: "csv",
  xlsx: "xlsx",
  xlsm: "xlsx",
  json: "json",
  jsonl: "jsonl",
  ndjson: "jsonl",
};

const REFUSED: Record<string, string> = {
  xls: "legacy Excel (.xls) files are not supported; save the workbook as .xlsx",
  xlsb: "binary Excel (.xlsb) files are not supported; save the workbook as .xlsx",
  ods: "OpenDocument spreadsheets are not supported; save the file as .xlsx or .csv",
  numbers: "Numbers files are not supported; export the table as .xlsx or .csv",
};

/**
 * Detects the format of an upload.
 * @param bytes file content (only the first few KB are looked at)
 * @param fileName the uploaded name; its extension is the main signal
 * @returns the format to parse with
 * @throws ImportError `unsupported_format` for other extensions
 */
export function detectFormat(bytes: Uint8Array, fileName: string): ImportFormat {
  const dot = fileName.lastIndexOf(".");
  const ext = dot > 0 && dot > fileName.lastIndexOf("/") ? fileName.slice(dot + 1).toLowerCase() : "";
  if (ext && BY_EXTENSION[ext]) return BY_EXTENSION[ext];
  if (ext && REFUSED[ext]) throw new ImportError("unsupported_format", fileName, `${fileName}: ${REFUSED[ext]}.`);
  if (ext) {
    throw new ImportError("unsupported_format", fileName, `${fileName} is not a supported file type; upload CSV, XLSX, JSON or JSONL.`);
  }
  if (looksLikeZip(bytes)) return "xlsx";
  const head = new TextDecoder("utf-8")
    .decode(bytes.subarray(0, 4096))
    .replace(/^\uFEFF/, "")
    .trimStart();
  if (head.startsWith("[")) return "json";
  if (head.startsWith("{")) {
    const lines = head.split(/\r\n|\r|\n/).filter((l) => l.trim() !== "");
    return lines.length > 1 && lines[0].trim().endsWith("}") && lines[1].trim().startsWith("{") ? "jsonl" : "json";
  }
  return "csv";
}
