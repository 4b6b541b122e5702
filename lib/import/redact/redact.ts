/**
 * Replacing personal data with typed placeholders (issue 3). Placeholders are numbered per row and
 * per type in order of first appearance (`[EMAIL_1]`, `[EMAIL_2]`, `[PHONE_1]`, …); the same value
 * seen again in the same row — in any column — gets the same placeholder. Numbering restarts on
 * every row ({@link RowRedactor}).
 *
 * A cell holding a JSON array or object (history, nested values) is redacted inside its string
 * values and numbers only, so it stays valid JSON (a number that is personal data becomes a string
 * placeholder); keys are kept. When something was replaced the JSON is re-written compactly
 * (numbers keep their source text); otherwise the cell is returned unchanged.
 */
import { stringifyRawJson, tryParseRawJson, type RawJson } from "../json-raw";
import { PII_LABEL, findPii, type PiiType } from "./detectors";
import type { KeepList } from "./settings";

/** Counts per type (only types that occurred are present). */
export type PiiCounts = Partial<Record<PiiType, number>>;

/** Placeholder numbering for one row; create one per row. */
export class RowRedactor {
  private numbers: Map<PiiType, Map<string, number>> | null = null;

  /**
   * @param types kinds to redact (null = all)
   * @param keep values left as written (settings.ts); each one kept adds 1 to `kept[entry]`
   * @param kept counts per keep-list entry, shared by the rows of a table
   */
  constructor(
    private readonly types: ReadonlySet<PiiType> | null = null,
    private readonly keep: KeepList | null = null,
    private readonly kept: number[] = [],
  ) {}

  /** The placeholder for a value: the same `key` gives the same number within this row. */
  placeholder(type: PiiType, key: string): string {
    this.numbers ??= new Map();
    let byKey = this.numbers.get(type);
    if (!byKey) {
      byKey = new Map();
      this.numbers.set(type, byKey);
    }
    let n = byKey.get(key);
    if (n === undefined) {
      n = byKey.size + 1;
      byKey.set(key, n);
    }
    return `[${PII_LABEL[type]}_${n}]`;
  }

  /**
   * Redacts plain text.
   * @param text the text
   * @param counts receives one count per replacement, by type
   * @returns the text with placeholders (the same string when nothing was found)
   */
  redactText(text: string, counts: PiiCounts): string {
    if (text.length < 5) return text;
    const matches = findPii(text, this.types);
    if (matches.length === 0) return text;
    let out = "";
    let last = 0;
    for (const m of matches) {
      if (this.keep && !this.keep.empty) {
        const entry = this.keep.match(m, text.slice(m.start, m.end));
        if (entry !== -1) {
          this.kept[entry] = (this.kept[entry] ?? 0) + 1;
          continue;
        }
      }
      out += text.slice(last, m.start) + this.placeholder(m.type, m.key);
      counts[m.type] = (counts[m.type] ?? 0) + 1;
      last = m.end;
    }
    return out + text.slice(last);
  }

  /**
   * Redacts a cell: JSON-aware for cells holding a JSON array/object (see module comment),
   * plain text otherwise.
   * @param cell the cell text
   * @param counts receives the counts by type
   * @returns the redacted cell (the same string when nothing was found)
   */
  redactCell(cell: string, counts: PiiCounts): string {
    if (cell.length < 5) return cell;
    const first = firstNonSpace(cell);
    if (first === "[" || first === "{") {
      // Shortcut: JSON escapes cannot create personal data except through \u escapes, so a cell
      // whose raw text holds none (and no \u) needs no parsing.
      if (cell.indexOf("\\u") === -1 && findPii(cell, this.types).length === 0) return cell;
      const node = tryParseRawJson(cell);
      if (node) {
        const before = totalOf(counts);
        const redacted = this.redactJson(node, counts);
        return totalOf(counts) === before ? cell : stringifyRawJson(redacted);
      }
    }
    return this.redactText(cell, counts);
  }

  private redactJson(node: RawJson, counts: PiiCounts): RawJson {
    switch (node.kind) {
      case "string": {
        const value = this.redactText(node.value, counts);
        return value === node.value ? node : { kind: "string", value, start: node.start };
      }
      case "number": {
        const value = this.redactText(node.raw, counts);
        return value === node.raw ? node : { kind: "string", value, start: node.start };
      }
      case "array":
        return { kind: "array", items: node.items.map((x) => this.redactJson(x, counts)), start: node.start };
      case "object":
        return { kind: "object", entries: node.entries.map(([k, v]) => [k, this.redactJson(v, counts)] as [string, RawJson]), start: node.start };
      default:
        return node;
    }
  }
}

function firstNonSpace(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c !== " " && c !== "\n" && c !== "\t" && c !== "\r") return c;
  }
  return "";
}

function totalOf(counts: PiiCounts): number {
  let n = 0;
  for (const v of Object.values(counts)) n += v ?? 0;
  return n;
}

/**
 * Redacts one string with a fresh numbering (a convenience for single values; use
 * {@link RowRedactor} to keep numbering consistent across the cells of a row).
 * @param text any text
 * @param types kinds to redact (default all)
 * @returns the redacted text and the counts by type
 */
export function redactString(text: string, types?: readonly PiiType[]): { text: string; counts: PiiCounts } {
  const counts: PiiCounts = {};
  const r = new RowRedactor(types ? new Set(types) : null);
  return { text: r.redactText(text, counts), counts };
}
