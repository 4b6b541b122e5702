/**
 * `gsm8k`: grades a final numeric answer the way the GSM8K benchmark does (openai/grade-school-math:
 * the answer follows a `#### ` line), extended as issue 4 asks:
 *
 * - The final answer is the number after the LAST marker (default `####`; any marker, e.g. `A:`).
 *   A marker that starts with a letter or digit only counts at a word start (`A:` is not found
 *   inside `USA:`).
 * - Around the number, markdown (`**41**`, backticks), currency signs (`$`, `€`, `£`, ...),
 *   thousands separators (`1,234`; also thin/no-break spaces between groups of three digits) and a
 *   trailing period are ignored.
 * - Numbers compare by value: `1,234` = `1234.00`; signs count, including the Unicode minus `−`.
 *   A simple fraction `a/b` compares by its exact value.
 * - `strict` mode (default): only the number after the marker counts. `flexible` mode: when no
 *   marker (or no number after it) is found, the last number in the output is used, as
 *   lm-evaluation-harness's "flexible-extract" does.
 * - `expected` may be a number (`2,125`) or a worked solution ending in `#### N`.
 */
import type { Gsm8kSpec } from "../spec";
import { SPEC_DEFAULTS } from "../spec";
import { configError, failed, passed } from "../result";
import { shortVisible } from "../text/diff";
import { expectedOf, outputOf, type FieldProblem, type SpecContext, type StaticRunner } from "./common";

const KIND = "gsm8k";
const UPSTREAM_MARKER = "####";

const SIGN = "[-+\\u2212\\uFE63\\uFF0D]";
const CURRENCY = "[$€£¥₹₩₽¢]";
const NUMBER = "(?:\\d{1,3}(?:[\\u00A0\\u2009\\u202F]\\d{3})+(?!\\d)|\\d+(?:,\\d+)*)(?:\\.\\d+)?|\\.\\d+";
const TOKEN = `(${SIGN})?\\s*(?:${CURRENCY})?\\s*(${SIGN})?(${NUMBER})(?:\\/(\\d+(?:\\.\\d+)?)(?!\\d|[.,]\\d))?`;
/** A number token at a given position (sticky). Groups: sign1, sign2, number, denominator. */
const TOKEN_AT = new RegExp(TOKEN, "y");
/** Every number token not glued to a preceding word character or period. */
const TOKEN_ANY = new RegExp(`(?<![\\w.])${TOKEN}`, "g");
/** What may sit between a marker and its number: whitespace, markdown, quotes, brackets, `:` or `=`. */
const LEAD_AT = /[\s*_`~>"'“”‘’([{:=]*/y;
/** What may follow an expected value: whitespace, markdown, closing brackets, a period, `%`. */
const EXPECTED_TAIL = /^[\s*_`~)\]}.%"'”’]*$/;

/** A number read from text, with its canonical form. */
export interface ParsedNumber {
  /** The text as it appeared (e.g. `$1,234.00`). */
  text: string;
  /** Canonical decimal (e.g. `1234`, `-0.5`) or reduced fraction (`3/4`). */
  canonical: string;
  /** True when the value is a fraction that is not a whole number. */
  isFraction: boolean;
}

/** Where the answer was found: after the marker, as the last number (flexible), or nowhere. */
export type ExtractionMethod = "marker" | "last-number" | "none";

/** Outcome of {@link extractGsm8kAnswer}. */
export interface Gsm8kExtraction {
  answer: ParsedNumber | null;
  method: ExtractionMethod;
  /** True when the output contains the marker at all. */
  markerFound: boolean;
  /** Up to 40 characters following the last marker (for messages), when found. */
  afterMarker?: string;
}

function canonicalDecimal(negative: boolean, digits: string): string {
  const clean = digits.replace(/[,\u00A0\u2009\u202F]/g, "");
  const dot = clean.indexOf(".");
  let int = dot >= 0 ? clean.slice(0, dot) : clean;
  let frac = dot >= 0 ? clean.slice(dot + 1) : "";
  if (int.charCodeAt(0) === 48 /* 0 */) int = int.replace(/^0+/, "") || "0";
  else if (int === "") int = "0";
  if (frac.length > 0 && frac.charCodeAt(frac.length - 1) === 48) frac = frac.replace(/0+$/, "");
  const zero = int === "0" && frac === "";
  return (negative && !zero ? "-" : "") + int + (frac ? "." + frac : "");
}

/** Exact rational value of a canonical decimal or fraction: [numerator, denominator]. */
function rational(canonical: string): [bigint, bigint] {
  const slash = canonical.indexOf("/");
  if (slash >= 0) return [BigInt(canonical.slice(0, slash)), BigInt(canonical.slice(slash + 1))];
  const negative = canonical.startsWith("-");
  const body = negative ? canonical.slice(1) : canonical;
  const dot = body.indexOf(".");
  const frac = dot >= 0 ? body.slice(dot + 1) : "";
  const digits = (dot >= 0 ? body.slice(0, dot) : body) + frac;
  const n = BigInt(digits);
  return [negative ? -n : n, 10n ** BigInt(frac.length)];
}

function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b) [a, b] = [b, a % b];
  return a;
}

/** Builds a ParsedNumber from a regex match of TOKEN (groups 1-4). */
function fromMatch(m: RegExpExecArray): ParsedNumber {
  let negative = false;
  const signs = (m[1] ?? "") + (m[2] ?? "");
  for (const c of signs) if (c !== "+") negative = !negative;
  const text = m[0].trim();
  const canonical = canonicalDecimal(negative, m[3]);
  if (m[4] === undefined) return { text, canonical, isFraction: false };
  const [dn, dd] = rational(canonicalDecimal(false, m[4]));
  if (dn === 0n) return { text, canonical, isFraction: false };
  const [nn, nd] = rational(canonical);
  let num = nn * dd;
  let den = nd * dn;
  const g = gcd(num, den) || 1n;
  num /= g;
  den /= g;
  return den === 1n ? { text, canonical: num.toString(), isFraction: false } : { text, canonical: `${num}/${den}`, isFraction: true };
}

/** Reads a number token starting at `pos` (after optional markdown/quotes/`:`). `null` when none. */
function numberAt(text: string, pos: number): ParsedNumber | null {
  LEAD_AT.lastIndex = pos;
  LEAD_AT.exec(text);
  TOKEN_AT.lastIndex = LEAD_AT.lastIndex;
  const m = TOKEN_AT.exec(text);
  return m ? fromMatch(m) : null;
}

/** The last number in `text` (flexible mode), or `null`. */
function lastNumber(text: string): ParsedNumber | null {
  TOKEN_ANY.lastIndex = 0;
  let last: RegExpExecArray | null = null;
  for (let m = TOKEN_ANY.exec(text); m; m = TOKEN_ANY.exec(text)) last = m;
  return last ? fromMatch(last) : null;
}

const WORDISH = /[\p{L}\p{N}]/u;

/** Index of the last occurrence of `marker` in `text` (word-start rule for alphanumeric markers), or -1. */
export function lastMarkerIndex(text: string, marker: string): number {
  const wordStart = WORDISH.test(marker[0] ?? "");
  let from = text.length;
  while (from >= 0) {
    const i = text.lastIndexOf(marker, from);
    if (i < 0) return -1;
    if (!wordStart || i === 0 || !WORDISH.test(text[i - 1])) return i;
    from = i - 1;
  }
  return -1;
}

/**
 * Extracts the final answer from a model output.
 * @param output the model's text
 * @param marker final-answer marker (default `####`)
 * @param mode `strict`: only after the marker; `flexible`: fall back to the last number
 */
export function extractGsm8kAnswer(output: string, marker: string = SPEC_DEFAULTS.gsm8kMarker, mode: "strict" | "flexible" = "strict"): Gsm8kExtraction {
  const at = lastMarkerIndex(output, marker);
  if (at >= 0) {
    const start = at + marker.length;
    const answer = numberAt(output, start);
    const afterMarker = output.slice(start, start + 40);
    if (answer) return { answer, method: "marker", markerFound: true, afterMarker };
    if (mode === "flexible") {
      const last = lastNumber(output);
      return { answer: last, method: last ? "last-number" : "none", markerFound: true, afterMarker };
    }
    return { answer: null, method: "none", markerFound: true, afterMarker };
  }
  if (mode === "flexible") {
    const last = lastNumber(output);
    return { answer: last, method: last ? "last-number" : "none", markerFound: false };
  }
  return { answer: null, method: "none", markerFound: false };
}

/**
 * Parses an expected GSM8K value: a number such as `41`, `2,125`, `-3.5`, `$1,000` (a trailing
 * period or markdown is allowed), or a worked solution containing `#### N` (the number after the
 * last `####` is used). Returns `null` when no number can be read.
 */
export function parseGsm8kExpected(expected: string): ParsedNumber | null {
  if (expected.includes(UPSTREAM_MARKER)) {
    const at = expected.lastIndexOf(UPSTREAM_MARKER);
    return numberAt(expected, at + UPSTREAM_MARKER.length);
  }
  const trimmed = expected.trim();
  LEAD_AT.lastIndex = 0;
  LEAD_AT.exec(trimmed);
  TOKEN_AT.lastIndex = LEAD_AT.lastIndex;
  const m = TOKEN_AT.exec(trimmed);
  if (!m || !EXPECTED_TAIL.test(trimmed.slice(TOKEN_AT.lastIndex))) return null;
  return fromMatch(m);
}

/** True when two parsed numbers have the same value. */
export function sameNumber(a: ParsedNumber, b: ParsedNumber): boolean {
  if (!a.isFraction && !b.isFraction) return a.canonical === b.canonical;
  const [an, ad] = rational(a.canonical);
  const [bn, bd] = rational(b.canonical);
  return an * bd === bn * ad;
}

/** Configuration problems of a `gsm8k` spec: missing or non-numeric expected value, empty marker. */
export function checkGsm8k(spec: Gsm8kSpec, context?: SpecContext): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (spec.marker !== undefined && spec.marker.trim() === "")
    problems.push({ field: "marker", message: 'marker is empty: omit it to use "####" or give the text that precedes the final answer (e.g. "A:")' });
  const value = spec.expected ?? context?.expected;
  if (value === undefined || value.trim() === "") {
    problems.push({
      field: "expected",
      message:
        spec.expected !== undefined
          ? "expected is empty: give the correct final answer (a number)"
          : value === undefined
            ? "expected is missing: set it on the evaluator or give the case an expected result"
            : "expected is not set and the case's expected result is empty",
    });
  } else if (!parseGsm8kExpected(value)) {
    problems.push({
      field: "expected",
      message: `expected must be a number (e.g. 41, 2,125 or -3.5) or a solution ending in "#### <number>"; got "${shortVisible(value, 60)}"`,
    });
  }
  return problems;
}

/** Compiles a `gsm8k` spec. Never throws; configuration mistakes become `error` results. */
export function compileGsm8k(spec: Gsm8kSpec): StaticRunner {
  const marker = spec.marker ?? SPEC_DEFAULTS.gsm8kMarker;
  const mode = spec.mode ?? SPEC_DEFAULTS.gsm8kMode;
  const q = `"${marker}"`;
  let lastRaw: string | undefined;
  let lastParsed: ParsedNumber | null = null;
  return (trial) => {
    if (marker.trim() === "") return configError(KIND, "marker is empty");
    const exp = expectedOf(spec.expected, trial);
    if (exp.value !== lastRaw) {
      lastRaw = exp.value;
      lastParsed = parseGsm8kExpected(exp.value);
    }
    const expected = lastParsed;
    if (!expected)
      return configError(
        KIND,
        exp.value.trim() === ""
          ? exp.source === "spec"
            ? "expected is empty"
            : "expected is not set and the case's expected result is empty"
          : `expected is not a number: "${shortVisible(exp.value, 60)}"`,
      );
    const output = outputOf(trial);
    const ex = extractGsm8kAnswer(output, marker, mode);
    const details: Record<string, unknown> = {
      extracted: ex.answer?.canonical ?? null,
      extractedText: ex.answer?.text ?? null,
      expected: expected.canonical,
      method: ex.method,
      marker,
      mode,
    };
    if (!ex.answer) {
      if (ex.markerFound)
        return failed(
          KIND,
          `No final answer found: the last ${q} marker is not followed by a number (it is followed by "${shortVisible(ex.afterMarker ?? "", 30)}"). Expected ${expected.canonical}.`,
          details,
        );
      if (mode === "strict") {
        const last = lastNumber(output);
        return failed(
          KIND,
          `No final answer found: the output has no ${q} marker (strict mode). Expected ${expected.canonical}.` +
            (last ? ` The last number in the output is ${last.canonical}; mode "flexible" would use it.` : ""),
          details,
        );
      }
      return failed(KIND, `No final answer found: the output has no ${q} marker and no number. Expected ${expected.canonical}.`, details);
    }
    const where =
      ex.method === "marker"
        ? `The answer after the last ${q} is ${ex.answer.canonical}`
        : `${ex.markerFound ? `The last ${q} marker is not followed by a number` : `No ${q} marker found`}; the last number in the output is ${ex.answer.canonical}`;
    const shown = ex.answer.text !== ex.answer.canonical ? ` (written "${ex.answer.text}")` : "";
    if (sameNumber(ex.answer, expected)) return passed(KIND, `${where}${shown}, which equals the expected ${expected.canonical}.`, details);
    return failed(KIND, `${where}${shown}, but the expected answer is ${expected.canonical}.`, details);
  };
}
