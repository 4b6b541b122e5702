/**
 * One SheetJS cell → its text (issue 3):
 * - text cells (`t: "s"`, including formula results that are text): the text as stored (`007` stays `007`);
 * - numbers (`t: "n"`): the shortest text that reads back as the exact stored double (`String(v)`,
 *   e.g. `0.1`, `100000`, `1e+21`; `-0` → `0`), unless the number format is a date/time format:
 *   then ISO-8601 text — `2024-03-05` when neither the format nor the value has a time part,
 *   `2024-03-05T14:30:00` otherwise (`.sss` milliseconds only when non-zero), and `14:30:00` for a
 *   time-only format with a value below one day. The workbook's 1904 date system is honoured;
 * - booleans: `TRUE` / `FALSE` (as Excel shows them);
 * - errors: the error text (`#DIV/0!`, `#N/A`, …);
 * - formulas: their saved (cached) value, converted by the rules above (SheetJS is run without
 *   formula parsing, so only the cached value is seen); no saved value → empty (Excel computes it
 *   on opening, but the file does not hold it, and nothing is invented).
 */
import * as XLSX from "xlsx";

/** The subset of a SheetJS cell object this module reads. */
export interface SheetCell {
  t: string;
  v?: unknown;
  w?: string;
  z?: string | number;
}

const ERROR_TEXT: Record<number, string> = {
  0x00: "#NULL!",
  0x07: "#DIV/0!",
  0x0f: "#VALUE!",
  0x17: "#REF!",
  0x1d: "#NAME?",
  0x24: "#NUM!",
  0x2a: "#N/A",
  0x2b: "#GETTING_DATA",
};

/**
 * Converts a cell to text.
 * @param cell a SheetJS cell (read with `cellNF: true` so `z` holds the number format), or undefined
 * @param date1904 whether the workbook uses the 1904 date system
 * @returns the cell text; `""` for a missing or empty cell
 */
export function cellToText(cell: SheetCell | undefined | null, date1904: boolean): string {
  if (!cell) return "";
  const v = cell.v;
  switch (cell.t) {
    case "s":
    case "str":
      return v == null ? "" : String(v);
    case "b":
      return v ? "TRUE" : "FALSE";
    case "e":
      // An error cell without a code is a formula without a saved value (some writers mark it so).
      if (v === undefined && cell.w === undefined) return "";
      return cell.w ?? ERROR_TEXT[v as number] ?? "#ERROR";
    case "d":
      return v instanceof Date ? v.toISOString() : String(v ?? "");
    case "z":
      return "";
    case "n": {
      if (typeof v !== "number") return v == null ? "" : String(v);
      const fmt = typeof cell.z === "string" ? cell.z : typeof cell.z === "number" ? String(XLSX.SSF.get_table()[cell.z] ?? "") : "";
      if (fmt && Number.isFinite(v) && XLSX.SSF.is_date(fmt)) {
        const iso = serialToIso(v, fmt, date1904);
        if (iso !== null) return iso;
      }
      return numberText(v);
    }
    default:
      return v == null ? "" : String(v);
  }
}

/** Shortest exact text of a double (`String`), with `-0` written as `0`. */
export function numberText(v: number): string {
  return Object.is(v, -0) ? "0" : String(v);
}

const pad2 = (n: number) => (n < 10 ? "0" : "") + n;

/**
 * Excel serial date → ISO-8601 text (see module comment for the shapes).
 * @param serial days since the epoch of the workbook's date system, with a fraction for the time
 * @param format the cell's number format (decides whether a time part is shown)
 * @param date1904 1904 date system
 * @returns ISO text, or null when the value is not a representable date (negative, NaN)
 */
export function serialToIso(serial: number, format: string, date1904: boolean): string | null {
  if (!(serial >= 0)) return null;
  const parts = XLSX.SSF.parse_date_code(serial, { date1904 });
  if (!parts) return null;
  const bare = format.replace(/"[^"]*"|\[[^\]]*\]|\\./g, "").toLowerCase();
  const noAmPm = bare.replace(/am\/pm|a\/p/g, "");
  // "m" next to an hour or before seconds means minutes, not months.
  const formatHasDate = /[ydm]/.test(noAmPm.replace(/h+\s*:?\s*m+|m+\s*:?\s*s+/g, ""));
  const formatHasTime = /[hs]/.test(noAmPm) || noAmPm.length !== bare.length;
  const ms = Math.round(parts.u * 1000);
  const hasFraction = parts.H !== 0 || parts.M !== 0 || parts.S !== 0 || (ms > 0 && ms < 1000);
  const time = `${pad2(parts.H)}:${pad2(parts.M)}:${pad2(parts.S)}` + (ms > 0 && ms < 1000 ? `.${String(ms).padStart(3, "0")}` : "");
  if (!formatHasDate && serial < 1) return time;
  const date = `${String(parts.y).padStart(4, "0")}-${pad2(parts.m)}-${pad2(parts.d)}`;
  return formatHasTime || hasFraction ? `${date}T${time}` : date;
}
