/**
 * Value comparison for tool-call arguments (issue 4 rules):
 * - numbers compare by value (`3` equals `3.0`; JSON cannot tell them apart anyway), but a number
 *   never equals a string (`3` ≠ `"3"`), nor a boolean;
 * - strings compare exactly (case-sensitive);
 * - arrays compare element by element, in order, with equal lengths;
 * - objects compare key by key, key order ignored; a key whose value is `undefined` counts as absent;
 * - `null` equals only `null`.
 */

/** Deep equality of JSON-like values under the rules above. */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const ta = typeof a;
  if (ta !== typeof b || ta !== "object" || a === null || b === null) return false;
  const aa = Array.isArray(a);
  if (aa !== Array.isArray(b)) return false;
  if (aa) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!valuesEqual(x[i], y[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let nx = 0;
  for (const k in x) {
    if (!Object.prototype.hasOwnProperty.call(x, k) || x[k] === undefined) continue;
    nx++;
    if (!Object.prototype.hasOwnProperty.call(y, k) || !valuesEqual(x[k], y[k])) return false;
  }
  let ny = 0;
  for (const k in y) if (Object.prototype.hasOwnProperty.call(y, k) && y[k] !== undefined) ny++;
  return nx === ny;
}

/** A short JSON rendering of a value for messages (strings quoted, cut at `max` characters). */
export function formatValue(value: unknown, max = 60): string {
  let s: string;
  try {
    s = value === undefined ? "undefined" : (JSON.stringify(value) ?? String(value));
  } catch {
    s = String(value);
  }
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

/** Words for a value's JSON type: "a string", "a number", "an array", ... */
export function typeWord(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "boolean":
      return "a boolean";
    case "object":
      return "an object";
    default:
      return typeof value;
  }
}
