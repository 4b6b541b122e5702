/**
 * Import limits and the bounds they give (DESIGN.md §5: "Default limits: 4 MB and 5,000 rows, both
 * configurable"). The app reads overrides from the environment and passes them in; this module
 * never reads `process.env`.
 *
 * Bounds on time and memory, per parse (n = input bytes ≤ `maxBytes`):
 * - every format: the byte limit is checked before any decoding; decoding makes one JS string of
 *   at most n characters (≤ 2n bytes of heap);
 * - CSV: one papaparse pass, O(n); parsing stops as soon as row `maxRows + 1` is seen or the
 *   column count passes `maxColumns`; the table holds ≤ maxRows × maxColumns cells whose total
 *   text is ≤ n characters;
 * - JSON / JSONL: one hand-written scanner pass, O(n), nesting ≤ `maxJsonDepth` (no deep recursion);
 * - XLSX: the ZIP central directory is checked first, O(entries): ≤ `maxZipEntries` entries,
 *   declared expansion ≤ `maxPartBytes` per entry, ≤ `maxUncompressedBytes` in total and
 *   ≤ `maxCompressionRatio` per large entry. Each entry is then inflated in a stream that is
 *   aborted as soon as it produces more than its declared size (or the limits), so the declared
 *   sizes are proven honest before SheetJS inflates anything. SheetJS's work and memory grow with
 *   the XML it parses: the shared strings and one worksheet, each ≤ `maxPartBytes` (SheetJS holds
 *   ~12 bytes of heap per byte of shared-strings XML: 62 MB of strings took 4 s and 730 MB, hence
 *   the per-part bound). We convert at most `maxRows + 2` non-empty rows × (2 × maxColumns + 16)
 *   cells to text. Peak memory is a small multiple of `maxPartBytes` plus `maxUncompressedBytes`.
 */

/** All limits of one import. Sizes in bytes; rows count data rows (the header row is not counted). */
export interface ImportLimits {
  /** Largest accepted file, in bytes. Default 4 MB = 4,194,304 bytes. */
  maxBytes: number;
  /** Most data rows accepted (header excluded). Default 5,000. */
  maxRows: number;
  /** Most columns accepted. Default 1,000. */
  maxColumns: number;
  /** XLSX: most entries in the ZIP archive. Default 10,000. */
  maxZipEntries: number;
  /** XLSX: most bytes all ZIP entries may expand to, together. Default 32 MB. */
  maxUncompressedBytes: number;
  /**
   * XLSX: most bytes one ZIP entry (a part: the shared strings, a worksheet, the styles, …) may
   * expand to. Default 16 MB (a 4 MB workbook of ordinary text unpacks to ~10 MB).
   */
  maxPartBytes: number;
  /**
   * XLSX: highest uncompressed/compressed ratio accepted for an entry larger than
   * `ratioCheckMinBytes`. Default 200 (ordinary spreadsheets compress 5–30×; zip bombs ~1000×).
   */
  maxCompressionRatio: number;
  /** XLSX: entries smaller than this (bytes, uncompressed) skip the ratio check. Default 1 MB. */
  ratioCheckMinBytes: number;
  /** JSON / JSONL: deepest nesting of arrays and objects accepted. Default 256. */
  maxJsonDepth: number;
}

/** The defaults from DESIGN.md §5 (4 MB, 5,000 rows) plus the safety bounds documented above. */
export const DEFAULT_LIMITS: Readonly<ImportLimits> = Object.freeze({
  maxBytes: 4 * 1024 * 1024,
  maxRows: 5000,
  maxColumns: 1000,
  maxZipEntries: 10_000,
  maxUncompressedBytes: 32 * 1024 * 1024,
  maxPartBytes: 16 * 1024 * 1024,
  maxCompressionRatio: 200,
  ratioCheckMinBytes: 1024 * 1024,
  maxJsonDepth: 256,
});

/**
 * Fills unset limits with {@link DEFAULT_LIMITS}.
 * @param partial caller overrides (e.g. from env); `undefined` fields take the default
 * @returns a complete limits object
 * @throws RangeError when a given limit is not a positive finite number
 */
export function resolveLimits(partial: Partial<ImportLimits> = {}): ImportLimits {
  const out = { ...DEFAULT_LIMITS } as ImportLimits;
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof ImportLimits)[]) {
    const v = partial[key];
    if (v === undefined) continue;
    if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) {
      throw new RangeError(`Import limit ${key} must be a positive number, got ${String(v)}`);
    }
    out[key] = v;
  }
  return out;
}
