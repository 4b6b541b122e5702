/**
 * Case names and variant selectors (issue #6, DESIGN.md §6): a case that gives an id keeps it
 * exactly as written; a case without one is named by its eval and 0-based position, `refunds[0]`.
 * A variant selector `FILE::EVAL[ID]` picks one case of one eval by its given id or position;
 * `FILE::EVAL` picks every case of that eval. A case name `EVAL[ID]` (without the file) names one
 * case the same way, for `--name`.
 */

/** The name of a case without an id: `EVAL[index]`. */
export function positionalName(evalId: string, index: number): string {
  return `${evalId}[${index}]`;
}

/**
 * Why an eval id cannot be used, or null. Rule: 1–128 characters, no leading or trailing spaces, no
 * control characters, and none of `[`, `]` or `::` (they delimit variant selectors).
 */
export function evalIdProblem(id: string): string | null {
  if (id.length === 0) return "the eval id is empty";
  if (id.length > 128) return `the eval id is ${id.length} characters; the limit is 128`;
  if (id.trim() !== id) return "the eval id must not start or end with spaces";
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(id)) return "the eval id must not contain control characters";
  if (/[[\]]|::/.test(id)) return 'the eval id must not contain "[", "]" or "::" (they are used by FILE::EVAL[ID] selectors)';
  return null;
}

/** A parsed `FILE::EVAL[ID]` selector. `evalId` null means every eval of the file; `variant` null every case of the eval. */
export interface VariantSelector {
  /** The selector as written (for messages). */
  text: string;
  file: string;
  evalId: string | null;
  variant: string | null;
}

/** True when a command-line argument is a variant selector (contains `::`). */
export function isVariantSelector(arg: string): boolean {
  return arg.includes("::");
}

/** `EVAL[ID]` split into the eval id and the variant (a given case id or a 0-based position). */
export interface CaseNameParts {
  evalId: string;
  variant: string;
}

/**
 * Splits a case name written `EVAL[ID]` (the variant ID may itself contain brackets: `e[x[1]]`).
 * @returns the parts, or null when `text` is not of that form (no brackets, empty eval or ID)
 */
export function parseCaseName(text: string): CaseNameParts | null {
  const open = text.indexOf("[");
  if (open <= 0 || !text.endsWith("]")) return null;
  const variant = text.slice(open + 1, -1);
  return variant === "" ? null : { evalId: text.slice(0, open), variant };
}

/**
 * Parses `FILE::EVAL[ID]`, `FILE::EVAL` or `FILE::`.
 * @returns the selector, or null when `text` has no `::`, no file, or a malformed `[ID]`
 */
export function parseVariantSelector(text: string): VariantSelector | null {
  const at = text.indexOf("::");
  if (at <= 0) return null;
  const file = text.slice(0, at);
  const rest = text.slice(at + 2);
  if (rest === "") return { text, file, evalId: null, variant: null };
  const open = rest.indexOf("[");
  if (open === -1) return rest.includes("]") ? null : { text, file, evalId: rest, variant: null };
  if (!rest.endsWith("]") || open === 0) return null;
  const variant = rest.slice(open + 1, -1);
  if (variant === "") return null;
  return { text, file, evalId: rest.slice(0, open), variant };
}
