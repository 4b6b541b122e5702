/**
 * A strict JSON (RFC 8259) scanner that keeps every number's source text.
 *
 * Why: `JSON.parse` turns `1e5` into 100000 and `12345678901234567890` into 12345678901234567000,
 * and Node 20 has no access to a number's source text. Cells must keep what the file says, so this
 * scanner builds a small tree where numbers are `{ kind: "number", raw: "1e5" }`.
 * Objects keep their keys in order (duplicates included; consumers decide, see {@link objectEntries}).
 * Nesting is limited (`maxDepth`) so hostile input cannot overflow the stack. O(n) time.
 */

/** A parsed JSON value with source positions (`start` = UTF-16 offset of its first character). */
export type RawJson =
  | { kind: "string"; value: string; start: number }
  | { kind: "number"; raw: string; start: number }
  | { kind: "boolean"; value: boolean; start: number }
  | { kind: "null"; start: number }
  | { kind: "array"; items: RawJson[]; start: number }
  | { kind: "object"; entries: [string, RawJson][]; start: number };

/** A syntax error with its UTF-16 offset in the scanned text. */
export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = "JsonSyntaxError";
  }
}

/**
 * Parses one JSON text (the whole input, surrounding whitespace allowed).
 * @param text the JSON text
 * @param maxDepth deepest nesting of arrays/objects accepted (default 256)
 * @returns the value tree
 * @throws JsonSyntaxError on any syntax error, trailing content or excessive nesting
 */
export function parseRawJson(text: string, maxDepth = 256): RawJson {
  const p = new Scanner(text, maxDepth);
  p.skipWs();
  const value = p.value(0);
  p.skipWs();
  if (p.pos < text.length) throw new JsonSyntaxError("unexpected content after the JSON value", p.pos);
  return value;
}

/**
 * Parses JSON, returning `null` instead of throwing when the text is not valid JSON.
 * @param text the JSON text
 * @param maxDepth as in {@link parseRawJson}
 */
export function tryParseRawJson(text: string, maxDepth = 256): RawJson | null {
  try {
    return parseRawJson(text, maxDepth);
  } catch (e) {
    if (e instanceof JsonSyntaxError) return null;
    throw e;
  }
}

/**
 * Compact JSON text of a value, like `JSON.stringify` without spaces, except that numbers are
 * written exactly as in the source (`1e5` stays `1e5`, big integers keep every digit). Strings are
 * re-escaped the way `JSON.stringify` does. Duplicate keys are written as they came.
 */
export function stringifyRawJson(node: RawJson): string {
  switch (node.kind) {
    case "string":
      return JSON.stringify(node.value);
    case "number":
      return node.raw;
    case "boolean":
      return node.value ? "true" : "false";
    case "null":
      return "null";
    case "array": {
      let s = "[";
      for (let i = 0; i < node.items.length; i++) {
        if (i > 0) s += ",";
        s += stringifyRawJson(node.items[i]);
      }
      return s + "]";
    }
    case "object": {
      let s = "{";
      for (let i = 0; i < node.entries.length; i++) {
        if (i > 0) s += ",";
        s += JSON.stringify(node.entries[i][0]) + ":" + stringifyRawJson(node.entries[i][1]);
      }
      return s + "}";
    }
  }
}

/**
 * The cell text of a JSON value (issue 3): strings as they are, numbers and booleans as their
 * source text, `null` as the empty string, arrays and objects as compact JSON text
 * ({@link stringifyRawJson}).
 */
export function rawJsonToCell(node: RawJson): string {
  switch (node.kind) {
    case "string":
      return node.value;
    case "number":
      return node.raw;
    case "boolean":
      return node.value ? "true" : "false";
    case "null":
      return "";
    default:
      return stringifyRawJson(node);
  }
}

/**
 * An object's entries with duplicate keys resolved like `JSON.parse` (the last value wins, at the
 * position of the first occurrence).
 * @returns entries in first-seen key order, and the keys that were repeated
 */
export function objectEntries(node: Extract<RawJson, { kind: "object" }>): { entries: [string, RawJson][]; duplicates: string[] } {
  const index = new Map<string, number>();
  const entries: [string, RawJson][] = [];
  const duplicates: string[] = [];
  for (const [k, v] of node.entries) {
    const at = index.get(k);
    if (at === undefined) {
      index.set(k, entries.length);
      entries.push([k, v]);
    } else {
      entries[at] = [k, v];
      if (!duplicates.includes(k)) duplicates.push(k);
    }
  }
  return { entries, duplicates };
}

/** Finds the value of `key` in an object node (last occurrence), or undefined. */
export function getMember(node: RawJson, key: string): RawJson | undefined {
  if (node.kind !== "object") return undefined;
  let found: RawJson | undefined;
  for (const [k, v] of node.entries) if (k === key) found = v;
  return found;
}

/**
 * 1-based line and column of a UTF-16 offset (line breaks: `\n`, `\r\n`, lone `\r`).
 * @param text the scanned text
 * @param offset position in `text`
 */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

const NUMBER_RE = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

class Scanner {
  pos = 0;
  constructor(
    private readonly s: string,
    private readonly maxDepth: number,
  ) {}

  skipWs(): void {
    const s = this.s;
    let p = this.pos;
    for (;;) {
      const c = s.charCodeAt(p);
      if (c === 32 || c === 10 || c === 13 || c === 9) p++;
      else break;
    }
    this.pos = p;
  }

  value(depth: number): RawJson {
    const s = this.s;
    const start = this.pos;
    const c = s.charCodeAt(start);
    switch (c) {
      case 34: // "
        return { kind: "string", value: this.string(), start };
      case 123: // {
        return this.object(depth + 1);
      case 91: // [
        return this.array(depth + 1);
      case 116: // t
        return this.literal("true", { kind: "boolean", value: true, start });
      case 102: // f
        return this.literal("false", { kind: "boolean", value: false, start });
      case 110: // n
        return this.literal("null", { kind: "null", start });
      default: {
        if (c === 45 || (c >= 48 && c <= 57)) {
          NUMBER_RE.lastIndex = start;
          const m = NUMBER_RE.exec(s);
          if (!m || m[0] === "-") throw new JsonSyntaxError("invalid number", start);
          const end = start + m[0].length;
          const next = s.charCodeAt(end);
          // Reject forms like 01, 1., 1e, .5 that the regex stops early on.
          if ((next >= 48 && next <= 57) || next === 46 || next === 101 || next === 69) {
            throw new JsonSyntaxError("invalid number", start);
          }
          this.pos = end;
          return { kind: "number", raw: m[0], start };
        }
        if (start >= s.length) throw new JsonSyntaxError("unexpected end of input", start);
        throw new JsonSyntaxError(`unexpected character ${JSON.stringify(s[start])}`, start);
      }
    }
  }

  private literal<T extends RawJson>(word: string, node: T): T {
    if (!this.s.startsWith(word, this.pos)) {
      throw new JsonSyntaxError(`unexpected character ${JSON.stringify(this.s[this.pos])}`, this.pos);
    }
    this.pos += word.length;
    return node;
  }

  private object(depth: number): RawJson {
    if (depth > this.maxDepth) throw new JsonSyntaxError(`nesting deeper than ${this.maxDepth} levels`, this.pos);
    const start = this.pos;
    const s = this.s;
    this.pos++;
    const entries: [string, RawJson][] = [];
    this.skipWs();
    if (s.charCodeAt(this.pos) === 125) {
      this.pos++;
      return { kind: "object", entries, start };
    }
    for (;;) {
      if (s.charCodeAt(this.pos) !== 34) throw this.expected("a quoted key");
      const key = this.string();
      this.skipWs();
      if (s.charCodeAt(this.pos) !== 58) throw this.expected('":"');
      this.pos++;
      this.skipWs();
      entries.push([key, this.value(depth)]);
      this.skipWs();
      const c = s.charCodeAt(this.pos);
      if (c === 44) {
        this.pos++;
        this.skipWs();
        continue;
      }
      if (c === 125) {
        this.pos++;
        return { kind: "object", entries, start };
      }
      throw this.expected('"," or "}"');
    }
  }

  private array(depth: number): RawJson {
    if (depth > this.maxDepth) throw new JsonSyntaxError(`nesting deeper than ${this.maxDepth} levels`, this.pos);
    const start = this.pos;
    const s = this.s;
    this.pos++;
    const items: RawJson[] = [];
    this.skipWs();
    if (s.charCodeAt(this.pos) === 93) {
      this.pos++;
      return { kind: "array", items, start };
    }
    for (;;) {
      items.push(this.value(depth));
      this.skipWs();
      const c = s.charCodeAt(this.pos);
      if (c === 44) {
        this.pos++;
        this.skipWs();
        continue;
      }
      if (c === 93) {
        this.pos++;
        return { kind: "array", items, start };
      }
      throw this.expected('"," or "]"');
    }
  }

  private string(): string {
    const s = this.s;
    const open = this.pos;
    let p = open + 1;
    let out = "";
    let chunk = p;
    for (;;) {
      if (p >= s.length) throw new JsonSyntaxError("unterminated string", open);
      const c = s.charCodeAt(p);
      if (c === 34) {
        out += s.slice(chunk, p);
        this.pos = p + 1;
        return out;
      }
      if (c < 32) throw new JsonSyntaxError("control character in string (must be escaped)", p);
      if (c !== 92) {
        p++;
        continue;
      }
      out += s.slice(chunk, p);
      const e = s.charCodeAt(p + 1);
      switch (e) {
        case 34:
          out += '"';
          break;
        case 92:
          out += "\\";
          break;
        case 47:
          out += "/";
          break;
        case 98:
          out += "\b";
          break;
        case 102:
          out += "\f";
          break;
        case 110:
          out += "\n";
          break;
        case 114:
          out += "\r";
          break;
        case 116:
          out += "\t";
          break;
        case 117: {
          const hex = s.slice(p + 2, p + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new JsonSyntaxError("invalid \\u escape", p);
          out += String.fromCharCode(parseInt(hex, 16));
          p += 4;
          break;
        }
        default:
          throw new JsonSyntaxError("invalid escape", p);
      }
      p += 2;
      chunk = p;
    }
  }

  private expected(what: string): JsonSyntaxError {
    const at = this.pos;
    if (at >= this.s.length) return new JsonSyntaxError(`unexpected end of input, expected ${what}`, at);
    return new JsonSyntaxError(`expected ${what} but found ${JSON.stringify(this.s[at])}`, at);
  }
}
