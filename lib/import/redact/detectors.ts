/**
 * Finds personal data in text (issue 3, redaction). Each detector returns matches with a
 * normalised `key` so the same value gets the same placeholder within a row.
 *
 * What is detected (and what deliberately is not):
 * - `email`: `local@domain.tld` (letters of any script in the local part; a TLD of ≥ 2 letters).
 * - `phone`: (a) international: `+` and a country code, then groups separated by single spaces,
 *   dots or dashes, or a bracketed area code — 8 to 15 digits in total (E.164 allows at most 15);
 *   (b) North American: `555-123-4567`, `555.123.4567`, `555 123 4567`, `(555) 123-4567`, optionally
 *   preceded by `1 ` / `1-` (area code starting 2–9); (c) national numbers with a trunk prefix `0`,
 *   in groups separated by single spaces, dots or dashes (or a bracketed `(0…)` area code), 9 to 11
 *   digits in total: `020 7946 0958`, `06 12 34 56 78`, `030 1234567`, `07700 900123`.
 *   Not phones, to keep plain numbers readable: digit runs without `+` or separators (order
 *   numbers, amounts, years, IDs), fewer than 8 digits after `+` or fewer than 9 without it
 *   (prices, years, `2019-2024`, dates like `2024-03-05`), other groupings such as arithmetic
 *   `10800-1200` or `1250-200-700`, thousands groupings (`125 000 000`), the SSN shape
 *   `123-45-6789`, and digits glued to letters, decimal points or other digits.
 * - `card`: 13–19 digits, either unseparated or in a printed grouping (4-4-4-4, 4-4-4-4-3, 4-6-5,
 *   4-6-4) with single spaces or dashes; first digit 2–6; Luhn-valid.
 * - `iban`: two letters, two check digits, 11–30 letters/digits (optionally in groups of four
 *   separated by spaces), correct length for the country and mod-97 checksum.
 * - `ip`: IPv4 dotted quads (0–255, not part of a longer dotted number) and IPv6 (RFC 4291 text
 *   forms incl. `::` and an IPv4 tail). Version strings like `1.2.3.4` are indistinguishable and are
 *   redacted too.
 * - `national_id`: US SSN `123-45-6789` (also with spaces; not area 000, 666 or 900–999, group 00
 *   or serial 0000); UK National Insurance number `AB 12 34 56 C` (valid prefix letters, suffix
 *   A–D); Spanish DNI/NIE with a correct check letter; Italian codice fiscale with a correct check
 *   character. Other countries' IDs are not detected.
 */
import { cardNumberValid, codiceFiscaleValid, ibanValid, ipv4Valid, ipv6Valid, spanishIdValid } from "./checks";

/** Kinds of personal data that are redacted. */
export const PII_TYPES = ["email", "phone", "card", "iban", "ip", "national_id"] as const;
/** One of {@link PII_TYPES}. */
export type PiiType = (typeof PII_TYPES)[number];

/** Placeholder label of each type: `[EMAIL_1]`, `[PHONE_1]`, `[CARD_1]`, `[IBAN_1]`, `[IP_1]`, `[NATIONAL_ID_1]`. */
export const PII_LABEL: Readonly<Record<PiiType, string>> = {
  email: "EMAIL",
  phone: "PHONE",
  card: "CARD",
  iban: "IBAN",
  ip: "IP",
  national_id: "NATIONAL_ID",
};

/** One finding: `text.slice(start, end)` is the personal data; `key` identifies the value. */
export interface PiiMatch {
  type: PiiType;
  start: number;
  end: number;
  key: string;
}

// Overlaps are resolved by start position, then this priority (lower wins), then length.
const PRIORITY: Record<PiiType, number> = { email: 0, iban: 1, card: 2, national_id: 3, ip: 4, phone: 5 };

const EMAIL_RE = /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]+@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+[\p{L}]{2,24}(?![\p{L}\p{N}-])/gu;
const PHONE_INTL_RE = /(?<![\w+])\+\d{1,4}(?:(?:[ .-]?\(\d{1,5}\)[ .-]?|[ .-])\d{1,8}){1,7}(?![\w]|[.-]\d)|(?<![\w+])\+\d{7,15}(?![\w]|[.-]\d)/g;
const PHONE_NANP_RE = /(?<![\w+.\-/])(?:1[ .-])?(?:\([2-9]\d{2}\) ?|[2-9]\d{2}([ .-]))\d{3}(?:\1|[ .-])\d{4}(?![\w]|[.\-/]\d)/g;
const PHONE_TRUNK_RE = /(?<![\w+.\-/])(?:\(0\d{1,4}\) ?|0\d{1,4}[ .-])\d{2,8}(?:[ .-]\d{2,8}){0,3}(?![\w]|[.\-/]\d)/g;
const CARD_RE = /(?<![\w-]|\d[.,])\d(?:[ -]?\d){12,18}(?![\w]|-\d)/g;
const IBAN_RE = /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,34}/g;
const IPV4_RE = /(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w]|\.\d)/g;
const IPV6_RE = /(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:[0-9A-Fa-f]{1,4}|(?:\d{1,3}\.){3}\d{1,3})?(?![\w:]|\.\d)/g;
const SSN_RE = /(?<![\w-]|\d[.,])(?!000|666|9\d\d)\d{3}([- ])(?!00)\d{2}\1(?!0000)\d{4}(?![\w]|-\d)/g;
const NINO_RE = /(?<![A-Za-z0-9])(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D](?![A-Za-z0-9])/g;
const ES_ID_RE = /(?<![A-Za-z0-9]|\d[.,])(?:\d{8}|[XYZ]-?\d{7})-?[A-Z](?![A-Za-z0-9])/g;
const CF_RE = /(?<![A-Za-z0-9])[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z](?![A-Za-z0-9])/g;

/**
 * Gates. A cluster is a run of digits and separators starting and ending with a digit; its digit
 * count bounds what it can be: cards need 13, phones 8 (with `+`) or 9, SSNs 9, DNI/NIE 7, and
 * an IPv4 address three dots. IBANs, NINOs and codici fiscali need two capitals before two digits.
 */
const CLUSTER_RE = /\d[\d ().\-/]*\d/g;
const UPPER_GATE = /[A-Z]{2} ?\d{2}/;
const CF_GATE = /[A-Z]{6}\d{2}/;

function digitsOf(s: string): string {
  return s.replace(/\D/g, "");
}

/**
 * All matches of a global regex, via `exec` (cheaper than `String.prototype.matchAll`, which
 * clones the regex on every call). The regex's `lastIndex` is reset first.
 */
function matches(re: RegExp, text: string): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    out.push(m);
    if (m[0].length === 0) re.lastIndex++;
  }
  return out;
}

/**
 * Finds all personal data in `text`, without overlaps.
 * @param text any text
 * @param types the kinds to look for (default: all)
 * @returns matches in text order
 */
export function findPii(text: string, types: ReadonlySet<PiiType> | null = null): PiiMatch[] {
  // Cheap gates first (most cells hold no personal data): native indexOf, then one scan for
  // clusters of digits and separators whose sizes say which digit-based detectors can match.
  const at = text.indexOf("@") !== -1;
  const ipv6Hint = hasIpv6Hint(text);
  let maxDigits = 0;
  let ipv4Like = false;
  CLUSTER_RE.lastIndex = 0;
  let c: RegExpExecArray | null;
  while ((c = CLUSTER_RE.exec(text)) !== null) {
    const cluster = c[0];
    let digits = 0;
    let dots = 0;
    for (let i = 0; i < cluster.length; i++) {
      const ch = cluster.charCodeAt(i);
      if (ch >= 48 && ch <= 57) digits++;
      else if (ch === 46) dots++;
    }
    if (digits > maxDigits) maxDigits = digits;
    if (dots >= 3) ipv4Like = true;
  }
  const upperGate = maxDigits >= 2 && UPPER_GATE.test(text);
  if (!at && !ipv6Hint && maxDigits < 7 && !ipv4Like && !upperGate) return [];

  const found: PiiMatch[] = [];
  if (at && wants(types, "email")) {
    for (const m of matches(EMAIL_RE, text)) {
      found.push({ type: "email", start: m.index, end: m.index + m[0].length, key: m[0].toLowerCase() });
    }
  }
  if (upperGate && wants(types, "iban")) findIbans(text, found);
  if (maxDigits >= 13 && wants(types, "card")) {
    for (const m of matches(CARD_RE, text)) {
      const d = digitsOf(m[0]);
      if (cardNumberValid(d) && cardGroupingValid(m[0])) found.push({ type: "card", start: m.index, end: m.index + m[0].length, key: d });
    }
  }
  if (wants(types, "national_id")) findNationalIds(text, found, maxDigits, upperGate);
  if (wants(types, "ip")) {
    if (ipv4Like) {
      for (const m of matches(IPV4_RE, text)) {
        if (ipv4Valid(m[0])) found.push({ type: "ip", start: m.index, end: m.index + m[0].length, key: m[0] });
      }
    }
    if (ipv6Hint) {
      for (const m of matches(IPV6_RE, text)) {
        if (ipv6Valid(m[0])) found.push({ type: "ip", start: m.index, end: m.index + m[0].length, key: m[0].toLowerCase() });
      }
    }
  }
  if (maxDigits >= 8 && wants(types, "phone")) findPhones(text, found);
  if (found.length <= 1) return found;
  found.sort((a, b) => a.start - b.start || PRIORITY[a.type] - PRIORITY[b.type] || b.end - a.end);
  const out: PiiMatch[] = [];
  let lastEnd = -1;
  for (const m of found) {
    if (m.start < lastEnd) continue;
    out.push(m);
    lastEnd = m.end;
  }
  return out;
}

/**
 * Card numbers are written without separators or in a printed grouping, with one kind of
 * separator throughout: 4-4-4-4 (16 digits), 4-4-4-4-3 (19), 4-6-5 (American Express, 15) or
 * 4-6-4 (Diners, 14).
 */
function cardGroupingValid(s: string): boolean {
  if (/^\d+$/.test(s)) return true;
  if (/ /.test(s) && /-/.test(s)) return false;
  const key = s
    .split(/[ -]/)
    .map((g) => g.length)
    .join("-");
  return key === "4-4-4-4" || key === "4-4-4-4-3" || key === "4-6-5" || key === "4-6-4";
}

function findIbans(text: string, found: PiiMatch[]): void {
  for (const m of matches(IBAN_RE, text)) {
    // The greedy match may run into following words: try the longest valid prefix ending at a word end.
    const s = m[0];
    for (let end = s.length; end >= 15; end--) {
      const next = text.charCodeAt(m.index + end);
      const boundary = !(next >= 48 && next <= 57) && !(next >= 65 && next <= 90) && !(next >= 97 && next <= 122);
      if (!boundary || s[end - 1] === " ") continue;
      const compact = s.slice(0, end).replace(/ /g, "");
      if (ibanValid(compact)) {
        found.push({ type: "iban", start: m.index, end: m.index + end, key: compact });
        break;
      }
    }
  }
}

function findNationalIds(text: string, found: PiiMatch[], maxDigits: number, upperGate: boolean): void {
  if (maxDigits >= 9) {
    for (const m of matches(SSN_RE, text)) {
      found.push({ type: "national_id", start: m.index, end: m.index + m[0].length, key: digitsOf(m[0]) });
    }
  }
  if (upperGate) {
    for (const m of matches(NINO_RE, text)) {
      found.push({ type: "national_id", start: m.index, end: m.index + m[0].length, key: m[0].replace(/ /g, "") });
    }
    if (CF_GATE.test(text)) {
      for (const m of matches(CF_RE, text)) {
        if (codiceFiscaleValid(m[0])) found.push({ type: "national_id", start: m.index, end: m.index + m[0].length, key: m[0] });
      }
    }
  }
  if (maxDigits >= 7) {
    for (const m of matches(ES_ID_RE, text)) {
      const compact = m[0].replace(/-/g, "");
      if (spanishIdValid(compact)) found.push({ type: "national_id", start: m.index, end: m.index + m[0].length, key: compact });
    }
  }
}

function wants(types: ReadonlySet<PiiType> | null, t: PiiType): boolean {
  return types === null || types.has(t);
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/** True when some colon is part of "::" or sits between two hex digits (how every IPv6 address looks). */
function hasIpv6Hint(text: string): boolean {
  let i = text.indexOf(":");
  while (i !== -1) {
    const next = text.charCodeAt(i + 1);
    if (next === 58 || (isHex(text.charCodeAt(i - 1)) && isHex(next))) return true;
    i = text.indexOf(":", i + 1);
  }
  return false;
}

function findPhones(text: string, found: PiiMatch[]): void {
  if (text.indexOf("+") !== -1) {
    for (const m of matches(PHONE_INTL_RE, text)) {
      const end = longestPhonePrefix(m[0], text, m.index, 8, 15, true);
      if (end > 0) found.push({ type: "phone", start: m.index, end: m.index + end, key: "+" + digitsOf(m[0].slice(0, end)) });
    }
  }
  for (const m of matches(PHONE_NANP_RE, text)) {
    found.push({ type: "phone", start: m.index, end: m.index + m[0].length, key: digitsOf(m[0]).replace(/^1(?=\d{10}$)/, "") });
  }
  for (const m of matches(PHONE_TRUNK_RE, text)) {
    const end = longestPhonePrefix(m[0], text, m.index, 9, 11, false);
    if (end > 0) found.push({ type: "phone", start: m.index, end: m.index + end, key: digitsOf(m[0].slice(0, end)) });
  }
}

/**
 * The regexes match greedily and may swallow a following number ("555 123 4567 2024"): try the
 * whole match, then drop trailing digit groups, and return the length of the longest prefix with
 * an accepted digit count that is not a thousands grouping or a date (0 when none). A shortened
 * match must be followed by a space.
 */
function longestPhonePrefix(s: string, text: string, at: number, minDigits: number, maxDigits: number, intl: boolean): number {
  const groupEnds: number[] = [];
  for (const g of s.matchAll(/\(\d+\)|\d+/g)) groupEnds.push(g.index + g[0].length);
  const minGroups = intl ? 1 : 2;
  for (let k = groupEnds.length; k >= minGroups; k--) {
    const end = groupEnds[k - 1];
    if (end < s.length && text[at + end] !== " ") continue;
    const sub = s.slice(0, end);
    const d = digitsOf(sub).length;
    if (d < minDigits || d > maxDigits) continue;
    if (!intl) {
      if (/^\d{1,3}(?:([ .])\d{3})(?:\1\d{3})*$/.test(sub)) return 0; // thousands grouping
      if (/^\d{4}[-./]\d{1,2}[-./]\d{1,2}$|^\d{1,2}[-./]\d{1,2}[-./]\d{4}$/.test(sub)) return 0; // a date
      if (/^\d{3}([- ])\d{2}\1\d{4}$/.test(sub)) return 0; // SSN shape (valid ones are national IDs)
    }
    return end;
  }
  return 0;
}
