/**
 * Invisible characters: detection (for `non_empty` and trimming) and visible markers (for messages).
 *
 * "Invisible" here means: whitespace as JavaScript's `\s` defines it (spaces, tabs, newlines, NBSP,
 * BOM, the U+2000 space family, ...), control characters (Unicode category Cc), format characters
 * (category Cf: zero-width space/joiners, word joiner, soft hyphen, direction marks, tag
 * characters, ...), variation selectors, and the blank "filler" letters that render as nothing
 * (Hangul fillers, Braille blank, combining grapheme joiner, Khmer inherent vowels, Mongolian
 * free variation selectors).
 */

const INVISIBLE_CLASS = "\\s\\p{Cc}\\p{Cf}\\u034F\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u2800\\u3164\\uFE00-\\uFE0F\\uFFA0\\u{E0100}-\\u{E01EF}";

/** Matches a string made only of invisible characters (including the empty string). */
const BLANK_RE = new RegExp(`^[${INVISIBLE_CLASS}]*$`, "u");
/** Matches one invisible character. */
const ONE_INVISIBLE_RE = new RegExp(`^[${INVISIBLE_CLASS}]$`, "u");
const LEADING_RE = new RegExp(`^[${INVISIBLE_CLASS}]+`, "u");
const TRAILING_RE = new RegExp(`[${INVISIBLE_CLASS}]+$`, "u");

/** True when `text` is empty or contains only invisible characters (see module doc). */
export function isBlank(text: string): boolean {
  return BLANK_RE.test(text);
}

/** True when the single character (code point) `ch` is invisible. */
export function isInvisibleChar(ch: string): boolean {
  return ONE_INVISIBLE_RE.test(ch);
}

/** ASCII characters that are invisible: controls, space and DEL. */
function isInvisibleAscii(code: number): boolean {
  return code <= 0x20 || code === 0x7f;
}

/** Removes leading and trailing invisible characters (a wider `String.prototype.trim`). */
export function trimInvisible(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isInvisibleAscii(text.charCodeAt(start))) start++;
  while (end > start && isInvisibleAscii(text.charCodeAt(end - 1))) end--;
  let out = start === 0 && end === text.length ? text : text.slice(start, end);
  // Non-ASCII ends may be invisible too (NBSP, ZWSP, BOM, ...): use the full class there.
  if (out.length > 0 && (out.charCodeAt(0) > 0x7f || out.charCodeAt(out.length - 1) > 0x7f)) {
    out = out.replace(LEADING_RE, "").replace(TRAILING_RE, "");
    if (out !== text) return trimInvisible(out);
  }
  return out;
}

/** Short names of common invisible characters, shown as `⟨NAME⟩` in messages. */
const SHORT_NAMES: Record<number, string> = {
  0x00: "NUL",
  0x0b: "VT",
  0x0c: "FF",
  0x1b: "ESC",
  0x7f: "DEL",
  0x85: "NEL",
  0xa0: "NBSP",
  0xad: "SHY",
  0x034f: "CGJ",
  0x061c: "ALM",
  0x115f: "HANGUL FILLER",
  0x1160: "HANGUL FILLER",
  0x180e: "MVS",
  0x2000: "EN QUAD",
  0x2001: "EM QUAD",
  0x2002: "ENSP",
  0x2003: "EMSP",
  0x2004: "3/MSP",
  0x2005: "4/MSP",
  0x2006: "6/MSP",
  0x2007: "FIGURE SPACE",
  0x2008: "PUNCT SPACE",
  0x2009: "THIN SPACE",
  0x200a: "HAIR SPACE",
  0x200b: "ZWSP",
  0x200c: "ZWNJ",
  0x200d: "ZWJ",
  0x200e: "LRM",
  0x200f: "RLM",
  0x2028: "LSEP",
  0x2029: "PSEP",
  0x202a: "LRE",
  0x202b: "RLE",
  0x202c: "PDF",
  0x202d: "LRO",
  0x202e: "RLO",
  0x202f: "NNBSP",
  0x205f: "MMSP",
  0x2060: "WJ",
  0x2066: "LRI",
  0x2067: "RLI",
  0x2068: "FSI",
  0x2069: "PDI",
  0x2800: "BRAILLE BLANK",
  0x3000: "IDEOGRAPHIC SPACE",
  0x3164: "HANGUL FILLER",
  0xfeff: "BOM",
  0xffa0: "HANGUL FILLER",
};

/** Full names used when listing invisible characters ("3 × U+200B ZERO WIDTH SPACE"). */
const LONG_NAMES: Record<number, string> = {
  0x09: "CHARACTER TABULATION",
  0x0a: "LINE FEED",
  0x0d: "CARRIAGE RETURN",
  0x20: "SPACE",
  0xa0: "NO-BREAK SPACE",
  0xad: "SOFT HYPHEN",
  0x200b: "ZERO WIDTH SPACE",
  0x200c: "ZERO WIDTH NON-JOINER",
  0x200d: "ZERO WIDTH JOINER",
  0x200e: "LEFT-TO-RIGHT MARK",
  0x200f: "RIGHT-TO-LEFT MARK",
  0x202f: "NARROW NO-BREAK SPACE",
  0x2060: "WORD JOINER",
  0x3000: "IDEOGRAPHIC SPACE",
  0xfeff: "ZERO WIDTH NO-BREAK SPACE (BOM)",
};

/** `U+XXXX` notation of a code point. */
export function codePointLabel(cp: number): string {
  return "U+" + cp.toString(16).toUpperCase().padStart(4, "0");
}

/** `U+200B ZERO WIDTH SPACE`-style description of one character, name when known. */
export function describeChar(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  const name = LONG_NAMES[cp] ?? SHORT_NAMES[cp];
  return name ? `${codePointLabel(cp)} ${name}` : codePointLabel(cp);
}

/**
 * Visible form of one character for messages: space → `·`, line feed → `↵`, carriage return → `␍`,
 * tab → `→`, other invisible characters → `⟨NAME⟩` or `⟨U+XXXX⟩`; visible characters unchanged.
 */
export function visibleChar(ch: string): string {
  switch (ch) {
    case " ":
      return "·";
    case "\n":
      return "↵";
    case "\r":
      return "␍";
    case "\t":
      return "→";
  }
  const code = ch.charCodeAt(0);
  // Fast path: printable ASCII.
  if (ch.length === 1 && code > 0x20 && code < 0x7f) return ch;
  if (!isInvisibleChar(ch)) return ch;
  const cp = ch.codePointAt(0) ?? 0;
  return `⟨${SHORT_NAMES[cp] ?? codePointLabel(cp)}⟩`;
}

/** Characters that {@link visibleChar} may change (everything but printable ASCII). */
const NOT_PRINTABLE = /[^\x21-\x7e]/gu;

/** Visible form of a whole string (see {@link visibleChar}). */
export function visualize(text: string): string {
  // Fast path, one pass: printable ASCII with spaces.
  let out = "";
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x20 && c < 0x7f) continue;
    if (c !== 0x20) return text.replace(NOT_PRINTABLE, visibleChar);
    out += text.slice(start, i) + "·";
    start = i + 1;
  }
  return start === 0 ? text : out + text.slice(start);
}

/** Every character other than printable ASCII and the plain space. */
const NOT_PLAIN = /[^\x20-\x7e]/gu;

/**
 * Readable form of a longer text for messages: newlines, tabs and invisible characters get
 * markers (see {@link visibleChar}) but plain spaces stay spaces.
 */
export function visualizeSoft(text: string): string {
  return text.replace(NOT_PLAIN, visibleChar);
}

/** True when `text` contains any invisible character other than a plain space. */
export function hasInvisibleOtherThanSpace(text: string): boolean {
  for (const ch of text) if (ch !== " " && isInvisibleChar(ch)) return true;
  return false;
}

/**
 * Counts the invisible characters of a blank string, by kind, for messages:
 * e.g. `2 × U+200B ZERO WIDTH SPACE, 1 × U+0020 SPACE`.
 */
export function summarizeInvisible(text: string): string {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  return [...counts.entries()].map(([ch, n]) => `${n} × ${describeChar(ch)}`).join(", ");
}
