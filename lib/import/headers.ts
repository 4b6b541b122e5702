/**
 * Header names → unique column names (issue 3): names are trimmed; an empty name becomes
 * `column_N` (N = 1-based position); a repeated name keeps its first occurrence and later ones get
 * the smallest free suffix `_2`, `_3`, … (`answer`, `answer_2`). A suffix never collides with a
 * name that appears elsewhere in the header. Each rename is reported as a warning.
 */
import type { ImportProblem } from "./types";

/** Result of {@link uniqueHeaders}: one stored name per input name, and a warning per rename. */
export interface UniqueHeaders {
  columns: string[];
  problems: ImportProblem[];
}

/**
 * Makes header names unique.
 * @param names header names as written (any may be empty or repeated)
 * @param where optional location for the warnings, e.g. `{ line: 1 }` for a CSV header row
 * @param trim trim surrounding whitespace (true for CSV/XLSX headers; JSON keys are kept exactly)
 * @returns the stored column names (same length and order) and the rename warnings
 */
export function uniqueHeaders(names: readonly string[], where: { line?: number; sheetRow?: number } = {}, trim = true): UniqueHeaders {
  const trimmed = trim ? names.map((n) => n.trim()) : names.slice();
  // Reserve every name as written so that a generated suffix never takes a real header's name.
  const taken = new Set<string>(trimmed.filter((n) => n !== ""));
  const seen = new Set<string>();
  const columns: string[] = [];
  const problems: ImportProblem[] = [];
  for (let i = 0; i < trimmed.length; i++) {
    const name = trimmed[i];
    const position = i + 1;
    if (name === "") {
      const stored = freeName(`column_${position}`, taken, true);
      taken.add(stored);
      seen.add(stored);
      columns.push(stored);
      problems.push({
        severity: "warning",
        code: "empty_header",
        ...where,
        column: stored,
        message: `Column ${position} has no header name; it is stored as "${stored}".`,
      });
      continue;
    }
    if (!seen.has(name)) {
      seen.add(name);
      columns.push(name);
      continue;
    }
    const stored = freeName(name, taken, false);
    taken.add(stored);
    seen.add(stored);
    columns.push(stored);
    problems.push({
      severity: "warning",
      code: "duplicate_header",
      ...where,
      column: stored,
      message: `Header "${name}" appears more than once; column ${position} is stored as "${stored}".`,
    });
  }
  return { columns, problems };
}

/**
 * The first of `base` (when `baseAllowed` and free), `base_2`, `base_3`, … not in `taken`.
 * @param base the wanted name
 * @param taken names already in use
 * @param baseAllowed whether `base` itself may be returned
 */
export function freeName(base: string, taken: ReadonlySet<string>, baseAllowed: boolean): string {
  if (baseAllowed && !taken.has(base)) return base;
  for (let k = 2; ; k++) {
    const candidate = `${base}_${k}`;
    if (!taken.has(candidate)) return candidate;
  }
}
