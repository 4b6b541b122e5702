/**
 * `{{variable}}` templates of system prompts (DESIGN.md §1 "prompt revision").
 *
 * Syntax: `{{name}}`, whitespace allowed inside the braces (`{{ name }}`), names made of
 * `A-Z a-z 0-9 _ . -`. Anything else between double braces (e.g. `{{#if x}}`, `{{ a b }}`) is not a
 * placeholder and is left untouched. Substitution is a single pass: a value that itself contains
 * `{{…}}` is inserted literally and never expanded again.
 */

/** Matches one placeholder; group 1 is the variable name. A fresh RegExp is made per use (global state). */
const PLACEHOLDER_SOURCE = String.raw`\{\{\s*([A-Za-z0-9_.\-]+)\s*\}\}`;

function placeholderRegExp(): RegExp {
  return new RegExp(PLACEHOLDER_SOURCE, "g");
}

/**
 * Names of the variables a template uses, in order of first use, without duplicates.
 * Used by the dataset importer and the bench planner to flag cases that lack a variable.
 * @param template a system prompt template
 * @returns variable names, e.g. `["customer_name", "order.id"]`; `[]` when there are none
 */
export function templateVariables(template: string): string[] {
  const seen = new Set<string>();
  for (const match of template.matchAll(placeholderRegExp())) seen.add(match[1]);
  return [...seen];
}

/** Result of {@link fillTemplate}. */
export interface FilledTemplate {
  /** The template with every known variable substituted; unknown placeholders stay exactly as written. */
  text: string;
  /** Names used by the template that have no value, in order of first use, without duplicates. */
  missingVariables: string[];
}

/**
 * Substitutes `{{name}}` placeholders with values (single pass, see module doc).
 * A variable without a value is never invented: its placeholder is left as is and reported.
 * An empty-string value is a value (the placeholder is replaced by "").
 * @param template the template text
 * @param values variable name → value
 * @returns the filled text and the names of the missing variables
 */
export function fillTemplate(template: string, values: ReadonlyMap<string, string>): FilledTemplate {
  const missing = new Set<string>();
  const text = template.replace(placeholderRegExp(), (whole: string, name: string) => {
    const value = values.get(name);
    if (value === undefined) {
      missing.add(name);
      return whole;
    }
    return value;
  });
  return { text, missingVariables: [...missing] };
}

/** A piece of a template: plain text, or a placeholder (`variable` set, `text` as written). */
export interface TemplateSegment {
  text: string;
  variable?: string;
}

/**
 * Splits a template into text and placeholders, in order, for display (the Prompt page highlights
 * `{{variables}}`). Joining every `text` gives the template back.
 */
export function templateSegments(template: string): TemplateSegment[] {
  const out: TemplateSegment[] = [];
  let at = 0;
  for (const m of template.matchAll(placeholderRegExp())) {
    if (m.index > at) out.push({ text: template.slice(at, m.index) });
    out.push({ text: m[0], variable: m[1] });
    at = m.index + m[0].length;
  }
  if (at < template.length) out.push({ text: template.slice(at) });
  return out;
}
