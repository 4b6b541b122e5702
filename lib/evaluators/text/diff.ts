/**
 * Shows where two strings differ, for failure messages of text comparisons: the position of the
 * first difference (character, line, column; all 1-based, counted in Unicode code points) and an
 * aligned excerpt of both strings with visible markers for spaces, newlines and invisible
 * characters (see `visualize`).
 */
import { visibleChar, visualize, visualizeSoft } from "./invisible";

/** Code points of context shown before and after the first difference. */
const CONTEXT_BEFORE = 20;
const CONTEXT_AFTER = 30;
/** Label width so the two excerpt lines and the caret line align. */
const LABEL_EXPECTED = "  expected: ";
const LABEL_ACTUAL = "  actual:   ";

/** Position of the first difference between two strings. */
export interface TextDifference {
  /** UTF-16 index of the first differing unit (never inside a surrogate pair). */
  index: number;
  /** 1-based character position, in code points. */
  character: number;
  /** 1-based line number. */
  line: number;
  /** 1-based column within the line, in code points. */
  column: number;
}

/**
 * Finds the first difference between `expected` and `actual`; `null` when they are equal.
 * When one string is a prefix of the other, the difference is at the end of the shorter one.
 * With `foldCase`, characters that differ only in letter case count as equal.
 */
export function firstDifference(expected: string, actual: string, foldCase = false): TextDifference | null {
  if (expected === actual) return null;
  const n = Math.min(expected.length, actual.length);
  let i = 0;
  while (i < n && (expected.charCodeAt(i) === actual.charCodeAt(i) || (foldCase && sameIgnoringCase(expected[i], actual[i])))) i++;
  if (i === n && expected.length === actual.length) return null;
  // Do not split a surrogate pair: step back to its high half.
  if (i > 0 && i < n) {
    const prev = expected.charCodeAt(i - 1);
    if (prev >= 0xd800 && prev <= 0xdbff) i--;
  }
  let character = 1;
  let line = 1;
  let column = 1;
  for (let k = 0; k < i; k++) {
    const c = expected.charCodeAt(k);
    if (c >= 0xd800 && c <= 0xdbff && k + 1 < i) k++;
    character++;
    if (c === 10) {
      line++;
      column = 1;
    } else column++;
  }
  return { index: i, character, line, column };
}

function sameIgnoringCase(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Any UTF-16 surrogate (a code point above U+FFFF). */
const SURROGATE = /[\uD800-\uDFFF]/;

/** The last `count` code points of `text` (no split surrogate pairs). */
function lastCodePoints(text: string, count: number): { text: string; truncated: boolean } {
  if (text.length <= count) return { text, truncated: false };
  if (!SURROGATE.test(text)) return { text: text.slice(text.length - count), truncated: true };
  let i = text.length;
  for (let taken = 0; taken < count && i > 0; taken++) {
    i--;
    if (i > 0 && isLow(text.charCodeAt(i)) && isHigh(text.charCodeAt(i - 1))) i--;
  }
  return { text: text.slice(i), truncated: i > 0 };
}

/** The first `count` code points of `text`. */
function firstCodePoints(text: string, count: number): { text: string; truncated: boolean } {
  if (text.length <= count) return { text, truncated: false };
  if (!SURROGATE.test(text)) return { text: text.slice(0, count), truncated: true };
  let i = 0;
  for (let taken = 0; taken < count && i < text.length; taken++) {
    if (isHigh(text.charCodeAt(i)) && i + 1 < text.length && isLow(text.charCodeAt(i + 1))) i += 2;
    else i++;
  }
  return { text: text.slice(0, i), truncated: i < text.length };
}

/** The code point starting at `index` as a string ("" at the end). */
function charAt(text: string, index: number): string {
  if (index >= text.length) return "";
  const cp = text.codePointAt(index)!;
  return String.fromCodePoint(cp);
}

/** Number of code points in `text`. */
export function codePointLength(text: string): number {
  if (!SURROGATE.test(text)) return text.length;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) i++;
    n++;
  }
  return n;
}

/** Visible, possibly shortened prefix (before a difference) of `text`. */
function excerptBefore(text: string, index: number): string {
  const before = lastCodePoints(text.slice(0, index), CONTEXT_BEFORE);
  return (before.truncated ? "…" : "") + visualize(before.text);
}

/** Visible, possibly shortened rest (from a difference on) of `text`. */
function excerptAfter(text: string, index: number): string {
  const after = firstCodePoints(text.slice(index), CONTEXT_AFTER);
  return (after.text.length === 0 ? "⟨end⟩" : visualize(after.text)) + (after.truncated ? "…" : "");
}

/**
 * Explains how `actual` differs from `expected` in a few lines:
 * the position of the first difference, both excerpts aligned with a caret under the difference,
 * and a plain-words note for the common cases (extra or missing text at the end, only letter case,
 * only whitespace). Returns "" when the strings are equal. With `foldCase`, letter case is ignored
 * when locating the difference (the excerpts keep the original case).
 */
export function describeDifference(expected: string, actual: string, foldCase = false): string {
  const diff = firstDifference(expected, actual, foldCase);
  if (!diff) return "";
  // Both strings are identical before the difference (up to letter case with foldCase).
  const prefixE = excerptBefore(expected, diff.index);
  const prefixA = foldCase ? excerptBefore(actual, diff.index) : prefixE;
  const lines = [
    `First difference at character ${diff.character} (line ${diff.line}, column ${diff.column}):`,
    LABEL_EXPECTED + prefixE + excerptAfter(expected, diff.index),
    LABEL_ACTUAL + prefixA + excerptAfter(actual, diff.index),
    " ".repeat(LABEL_ACTUAL.length + codePointLength(prefixA)) + "^",
  ];
  const note = foldCase ? "" : differenceNote(expected, actual, diff.index);
  if (note) lines.push(note);
  return lines.join("\n");
}

/** A plain-words remark about the kind of difference, or "". */
function differenceNote(expected: string, actual: string, index: number): string {
  if (index === expected.length) {
    const extra = actual.slice(index);
    return extra.trim() === ""
      ? `The output has extra whitespace at the end: ${visualize(extra)}`
      : `The output continues after the expected text (${codePointLength(extra)} extra characters).`;
  }
  if (index === actual.length) {
    const missing = expected.slice(index);
    return missing.trim() === ""
      ? `The output lacks whitespace the expected text ends with: ${visualize(missing)}`
      : `The output stops early: ${codePointLength(missing)} expected characters are missing.`;
  }
  const ec = charAt(expected, index);
  const ac = charAt(actual, index);
  const special = (ch: string) => ch !== " " && visibleChar(ch) !== ch;
  if (special(ec) || special(ac)) return `At that position the expected text has ${describeCharForNote(ec)} and the output has ${describeCharForNote(ac)}.`;
  if (expected.length === actual.length && expected.toLowerCase() === actual.toLowerCase()) return "The texts differ only in letter case.";
  if (equalIgnoringWhitespace(expected, actual)) return "The texts differ only in whitespace.";
  return "";
}

function isSpaceCode(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 0xa0 ||
    c === 0xfeff ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x3000 ||
    c === 0x202f ||
    c === 0x205f ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x1680
  );
}

/**
 * True when the strings are equal once runs of whitespace count as one space and surrounding
 * whitespace is ignored. Walks both strings once, no allocation.
 */
export function equalIgnoringWhitespace(a: string, b: string): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && isSpaceCode(a.charCodeAt(i))) i++;
  while (j < b.length && isSpaceCode(b.charCodeAt(j))) j++;
  for (;;) {
    const ea = i >= a.length;
    const eb = j >= b.length;
    if (ea || eb) {
      while (i < a.length && isSpaceCode(a.charCodeAt(i))) i++;
      while (j < b.length && isSpaceCode(b.charCodeAt(j))) j++;
      return i >= a.length && j >= b.length;
    }
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(j);
    const sa = isSpaceCode(ca);
    const sb = isSpaceCode(cb);
    if (sa || sb) {
      if (!(sa && sb)) {
        // A space run at the very end of one string is allowed.
        while (i < a.length && isSpaceCode(a.charCodeAt(i))) i++;
        while (j < b.length && isSpaceCode(b.charCodeAt(j))) j++;
        if (i >= a.length && j >= b.length) return true;
        return false;
      }
      while (i < a.length && isSpaceCode(a.charCodeAt(i))) i++;
      while (j < b.length && isSpaceCode(b.charCodeAt(j))) j++;
      continue;
    }
    if (ca !== cb) return false;
    i++;
    j++;
  }
}

function describeCharForNote(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  const v = visibleChar(ch);
  const label = "U+" + cp.toString(16).toUpperCase().padStart(4, "0");
  return v === ch ? `"${ch}" (${label})` : `${v} (${label})`;
}

/**
 * Shortens `text` to at most `max` code points for a message, marking the cut with `…`; marks
 * spaces, newlines and invisible characters (see `visualize`).
 */
export function shortVisible(text: string, max = 80): string {
  const head = firstCodePoints(text, max);
  return visualize(head.text) + (head.truncated ? "…" : "");
}

/**
 * Like {@link shortVisible} but plain spaces stay spaces (for quoting longer outputs); newlines,
 * tabs and invisible characters are still marked.
 */
export function shortReadable(text: string, max = 160): string {
  const head = firstCodePoints(text, max);
  return visualizeSoft(head.text) + (head.truncated ? "…" : "");
}

/**
 * True when `needle` occurs in `haystack` once runs of whitespace count as equal to any other run
 * of whitespace ("30 days" is found in "30\n  days"). No allocation.
 */
export function includesIgnoringWhitespace(haystack: string, needle: string): boolean {
  let ns = 0;
  let ne = needle.length;
  while (ns < ne && isSpaceCode(needle.charCodeAt(ns))) ns++;
  while (ne > ns && isSpaceCode(needle.charCodeAt(ne - 1))) ne--;
  if (ns === ne) return true;
  // Anchor on the needle's first word (up to its first whitespace): far fewer candidates than one character.
  let we = ns;
  while (we < ne && !isSpaceCode(needle.charCodeAt(we))) we++;
  const anchor = needle.slice(ns, we);
  for (let at = haystack.indexOf(anchor); at >= 0; at = haystack.indexOf(anchor, at + 1)) {
    let i = at;
    let j = ns;
    while (j < ne && i < haystack.length) {
      const cn = needle.charCodeAt(j);
      const ch = haystack.charCodeAt(i);
      if (isSpaceCode(cn)) {
        if (!isSpaceCode(ch)) break;
        while (j < ne && isSpaceCode(needle.charCodeAt(j))) j++;
        while (i < haystack.length && isSpaceCode(haystack.charCodeAt(i))) i++;
        continue;
      }
      if (cn !== ch) break;
      i++;
      j++;
    }
    if (j === ne) return true;
  }
  return false;
}

/** Shortens plain text (no visual markers) to at most `max` code points, marking the cut with `…`. */
export function shorten(text: string, max = 80): string {
  const head = firstCodePoints(text, max);
  return head.text + (head.truncated ? "…" : "");
}
