/**
 * Bytes → text for the text formats (CSV, JSON, JSONL).
 *
 * Rules (issue 3): a byte-order mark decides (UTF-8, UTF-16 LE, UTF-16 BE) and is removed; without a
 * BOM, bytes that are valid UTF-8 are UTF-8 (checked with `TextDecoder(..., { fatal: true })`);
 * text with a NUL byte in most even or most odd positions is UTF-16 without a BOM; anything else
 * is read as Windows-1252 (the usual encoding of CSV saved by older Excel on Windows).
 * UTF-8 and UTF-16 use the WHATWG `TextDecoder`. Windows-1252 is decoded here with the WHATWG
 * table, because Node 20's `TextDecoder("windows-1252")` decodes as ISO-8859-1 (0x80 → U+0080
 * instead of €).
 */
import { ImportError } from "./errors";
import type { TextEncodingName } from "./types";

/** Result of {@link decodeText}. `bom` tells whether a byte-order mark was found and removed. */
export interface DecodedText {
  text: string;
  encoding: TextEncodingName;
  bom: boolean;
}

/**
 * Decodes a text file.
 * @param bytes the file content
 * @param fileName used in error messages
 * @param forced decode with this encoding instead of detecting (a matching BOM is still removed)
 * @returns the text without BOM, and the encoding used
 * @throws ImportError `corrupt` when `forced` is given and the bytes are not valid in it
 */
export function decodeText(bytes: Uint8Array, fileName: string, forced?: TextEncodingName): DecodedText {
  const bomEncoding = sniffBom(bytes);
  if (forced) {
    const bom = bomEncoding === forced;
    const start = bom ? bomLength(forced) : 0;
    try {
      return { text: decodeWith(forced, bytes.subarray(start), true), encoding: forced, bom };
    } catch (cause) {
      throw new ImportError("corrupt", fileName, `${fileName} is not valid ${forced} text.`, { cause });
    }
  }
  if (bomEncoding) {
    const body = bytes.subarray(bomLength(bomEncoding));
    // A BOM is a strong claim; malformed sequences after it become U+FFFD rather than a refusal.
    return { text: decodeWith(bomEncoding, body, false), encoding: bomEncoding, bom: true };
  }
  const utf16 = sniffUtf16WithoutBom(bytes);
  if (utf16) return { text: decodeWith(utf16, bytes, false), encoding: utf16, bom: false };
  try {
    return { text: decodeWith("utf-8", bytes, true), encoding: "utf-8", bom: false };
  } catch {
    return { text: decodeWith("windows-1252", bytes, false), encoding: "windows-1252", bom: false };
  }
}

/** Returns the encoding announced by a byte-order mark at the start of `bytes`, if any. */
export function sniffBom(bytes: Uint8Array): TextEncodingName | null {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return null;
}

function bomLength(enc: TextEncodingName): number {
  return enc === "utf-8" ? 3 : enc === "windows-1252" ? 0 : 2;
}

/**
 * Detects BOM-less UTF-16 from NUL bytes: ASCII-heavy UTF-16 text has a zero high byte in every
 * character. Looks at the first 4 KB; needs ≥ 8 characters and NULs in ≥ 40% of one parity and
 * < 5% of the other.
 */
function sniffUtf16WithoutBom(bytes: Uint8Array): TextEncodingName | null {
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n < 16) return null;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenNul++;
    if (bytes[i + 1] === 0) oddNul++;
  }
  const pairs = n / 2;
  if (oddNul / pairs >= 0.4 && evenNul / pairs < 0.05) return "utf-16le";
  if (evenNul / pairs >= 0.4 && oddNul / pairs < 0.05) return "utf-16be";
  return null;
}

function decodeWith(enc: TextEncodingName, bytes: Uint8Array, fatal: boolean): string {
  if (enc === "windows-1252") return decodeWindows1252(bytes);
  // ignoreBOM: we strip the BOM ourselves, so a second U+FEFF (rare but real) stays in the text.
  return new TextDecoder(enc, { fatal, ignoreBOM: true }).decode(bytes);
}

/** Windows-1252 bytes 0x80–0x9F (WHATWG encoding standard index); other bytes equal their code point. */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d,
  0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

/**
 * Decodes Windows-1252 (every byte is a character; never fails).
 * @param bytes the encoded text
 */
export function decodeWindows1252(bytes: Uint8Array): string {
  const units = new Uint16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    units[i] = b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80] : b;
  }
  // Every unit is a BMP code point that is not a surrogate, so UTF-16LE decoding is exact.
  return new TextDecoder("utf-16le").decode(units);
}
