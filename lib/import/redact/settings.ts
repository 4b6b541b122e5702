/**
 * Redaction settings of a dataset (item 27): redaction on or off, and a keep-list of values that
 * are known business contact data rather than personal data (`privacy@northwind.example`, the
 * support line) and stay as written. Each entry is
 * - a value: kept wherever the same value is found, in any letter case; a phone number, card or
 *   IBAN also when written with other spacing (`+44-20-7946-0000` keeps `+44 20 7946 0000`), since
 *   values are compared by what they are, not by their punctuation;
 * - or a pattern with `*` for any characters (`*@northwind.example`), matched against the whole
 *   value found, in any letter case. Patterns are not regular expressions: matching is linear, so
 *   a keep-list cannot stall the server.
 */
import { findPii, type PiiMatch, type PiiType } from "./detectors";

/** Redaction on (the default) or off, and the values it keeps. */
export interface RedactionSettings {
  enabled: boolean;
  keep: string[];
}

/** Redaction on, nothing kept: what a dataset gets unless its settings say otherwise. */
export const DEFAULT_REDACTION: Readonly<RedactionSettings> = Object.freeze({ enabled: true, keep: [] as string[] });

/** Most entries in a keep-list. */
export const KEEP_LIST_MAX = 200;
/** Longest keep-list entry, in characters. */
export const KEEP_ENTRY_MAX = 200;

/**
 * A keep-list from text, one entry per line: trimmed, blank lines and repeats dropped.
 * @param text what the user typed
 */
export function parseKeepList(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    const entry = line.trim();
    if (entry !== "" && !out.includes(entry)) out.push(entry);
  }
  return out;
}

/**
 * What is wrong with a keep-list: too many entries, an entry too long, a pattern of only `*`.
 * @param keep the entries
 * @returns messages naming the entry (1-based); empty when the list can be used
 */
export function keepListProblems(keep: readonly string[]): string[] {
  if (keep.length > KEEP_LIST_MAX) return [`The keep-list has ${keep.length} entries; the limit is ${KEEP_LIST_MAX}.`];
  const out: string[] = [];
  keep.forEach((entry, i) => {
    if (entry.length > KEEP_ENTRY_MAX) out.push(`Keep-list entry ${i + 1} is ${entry.length} characters long; the limit is ${KEEP_ENTRY_MAX}.`);
    else if (/^\**$/.test(entry.trim()))
      out.push(`Keep-list entry ${i + 1} ("${entry}") would keep every value; name the values or a pattern such as *@example.com.`);
  });
  return out;
}

interface Entry {
  lower: string;
  pattern: boolean;
  /** For a value that is itself one piece of personal data: its type and normalised key. */
  pii: { type: PiiType; key: string } | null;
}

/** A compiled keep-list: which entry (if any) keeps a value that redaction found. */
export class KeepList {
  private readonly entries: Entry[];

  /** @param keep the entries (see the module comment) */
  constructor(keep: readonly string[]) {
    this.entries = keep.map((raw) => {
      const entry = raw.trim();
      const pattern = entry.includes("*");
      let pii: Entry["pii"] = null;
      if (!pattern) {
        const found = findPii(entry);
        if (found.length === 1 && found[0].start === 0 && found[0].end === entry.length) pii = { type: found[0].type, key: found[0].key };
      }
      return { lower: entry.toLowerCase(), pattern, pii };
    });
  }

  /** True when the list has no entry. */
  get empty(): boolean {
    return this.entries.length === 0;
  }

  /**
   * The entry that keeps a finding.
   * @param m the finding
   * @param value the text found (`text.slice(m.start, m.end)`)
   * @returns the entry's index, or -1 when the value is redacted
   */
  match(m: PiiMatch, value: string): number {
    const lower = value.toLowerCase();
    for (let i = 0; i < this.entries.length; i++) {
      const e = this.entries[i];
      if (e.pattern ? wildcardMatch(e.lower, lower) : e.lower === lower || (e.pii !== null && e.pii.type === m.type && e.pii.key === m.key)) return i;
    }
    return -1;
  }
}

/** `*`-pattern match of the whole text, greedy with one backtrack point: O(pattern × text) at worst. */
function wildcardMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] === "*") {
      star = p++;
      mark = t;
    } else if (p < pattern.length && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (star !== -1) {
      p = star + 1;
      t = ++mark;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === "*") p++;
  return p === pattern.length;
}
