/**
 * ZIP safety checks for XLSX files, run before SheetJS inflates anything (issue 3, "zip bomb").
 *
 * 1. {@link readZipDirectory} (sync) reads the End Of Central Directory record and every central
 *    directory entry — the same records SheetJS reads — and refuses: more than `maxZipEntries`
 *    entries; ZIP64, encryption, or compression other than stored/deflate; entries whose local
 *    header disagrees with the central directory; an entry larger than `ratioCheckMinBytes` whose
 *    declared uncompressed/compressed ratio exceeds `maxCompressionRatio`; an entry (a part: the
 *    shared strings, a worksheet, …) declaring more than `maxPartBytes`; a total declared
 *    uncompressed size above `maxUncompressedBytes`.
 * 2. {@link verifyZipSizes} (async) inflates each entry in a stream (WHATWG `DecompressionStream`,
 *    so no Node-only module) and aborts as soon as an entry produces more bytes than it declared
 *    (or than the part limit, or the running total passes the total limit); a lying archive is
 *    refused. Chunks are counted and dropped, so memory stays small and time is bounded by the
 *    declared total.
 * Together they make the declared sizes trustworthy, which bounds what SheetJS will allocate.
 */
import { ImportError, formatBytes, formatCount } from "./errors";
import type { ImportLimits } from "./limits";

/** One entry of the central directory. Sizes in bytes; `dataStart` = offset of the compressed data. */
export interface ZipEntryInfo {
  name: string;
  method: 0 | 8;
  compressedSize: number;
  uncompressedSize: number;
  dataStart: number;
}

/** The checked central directory: entries and the declared total uncompressed size in bytes. */
export interface ZipDirectory {
  entries: ZipEntryInfo[];
  totalUncompressed: number;
}

const SIG_EOCD = 0x06054b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_LOCAL = 0x04034b50;

/** True when the bytes start like a ZIP archive (`PK\x03\x04`, or `PK\x05\x06` for an empty one). */
export function looksLikeZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6));
}

/**
 * Reads and checks the ZIP central directory (step 1 in the module comment).
 * @param bytes the whole file
 * @param fileName for messages
 * @param limits `maxZipEntries`, `maxPartBytes`, `maxUncompressedBytes`, `maxCompressionRatio`,
 *   `ratioCheckMinBytes`
 * @returns the entries with their declared sizes
 * @throws ImportError `corrupt` (truncated or inconsistent records), `unsupported_format`
 *   (ZIP64, encryption, other compression), `zip_bomb` (total size or ratio limits),
 *   `part_too_large` (one entry over `maxPartBytes`; the message names the part and the limit)
 */
export function readZipDirectory(bytes: Uint8Array, fileName: string, limits: ImportLimits): ZipDirectory {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const corrupt = (why: string) => new ImportError("corrupt", fileName, `${fileName} is not a readable XLSX file (${why}).`);
  const u32 = (at: number) => view.getUint32(at, true);
  const u16 = (at: number) => view.getUint16(at, true);

  // Same search as SheetJS: the last EOCD signature in the file.
  let eocd = -1;
  for (let i = bytes.length - 4; i >= 0; i--) {
    if (bytes[i] === 0x50 && bytes[i + 1] === 0x4b && bytes[i + 2] === 0x05 && bytes[i + 3] === 0x06) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0 || eocd + 22 > bytes.length || u32(eocd) !== SIG_EOCD) throw corrupt("no ZIP end-of-directory record");
  const entriesHere = u16(eocd + 8);
  const entriesTotal = u16(eocd + 10);
  const cdSize = u32(eocd + 12);
  const cdOffset = u32(eocd + 16);
  if (entriesHere === 0xffff || entriesTotal === 0xffff || cdOffset === 0xffffffff || cdSize === 0xffffffff) {
    throw new ImportError("unsupported_format", fileName, `${fileName} is a ZIP64 archive, which is not supported for XLSX import.`);
  }
  if (entriesHere !== entriesTotal) throw corrupt("multi-part ZIP archive");
  if (entriesHere > limits.maxZipEntries) {
    throw new ImportError(
      "zip_bomb",
      fileName,
      `${fileName} contains ${formatCount(entriesHere)} archive entries; the limit is ${formatCount(limits.maxZipEntries)}.`,
      { limit: limits.maxZipEntries, actual: entriesHere },
    );
  }
  if (cdOffset + cdSize > eocd) throw corrupt("central directory outside the file");

  const entries: ZipEntryInfo[] = [];
  let total = 0;
  let p = cdOffset;
  const nameDecoder = new TextDecoder("utf-8");
  for (let k = 0; k < entriesHere; k++) {
    if (p + 46 > bytes.length || u32(p) !== SIG_CENTRAL) throw corrupt("broken central directory");
    const flags = u16(p + 8);
    const method = u16(p + 10);
    const csz = u32(p + 20);
    const usz = u32(p + 24);
    const nameLen = u16(p + 28);
    const extraLen = u16(p + 30);
    const commentLen = u16(p + 32);
    const localOffset = u32(p + 42);
    if (p + 46 + nameLen + extraLen + commentLen > bytes.length) throw corrupt("broken central directory");
    const name = nameDecoder.decode(bytes.subarray(p + 46, p + 46 + nameLen));
    if (hasZip64Extra(view, p + 46 + nameLen, extraLen) || csz === 0xffffffff || usz === 0xffffffff || localOffset === 0xffffffff) {
      throw new ImportError("unsupported_format", fileName, `${fileName} uses ZIP64 entries, which are not supported for XLSX import.`);
    }
    if (flags & 0x41) {
      throw new ImportError("unsupported_format", fileName, `${fileName} is encrypted (password-protected); save it without a password and upload it again.`);
    }
    if (method !== 0 && method !== 8) {
      throw new ImportError("unsupported_format", fileName, `${fileName} uses ZIP compression method ${method}; only stored and deflate are supported.`);
    }
    if (method === 0 && csz !== usz) throw corrupt(`stored entry ${name} has inconsistent sizes`);

    // The local header is what SheetJS trusts; it must agree with the central directory.
    const lp = localOffset;
    if (lp + 30 > bytes.length || u32(lp) !== SIG_LOCAL) throw corrupt(`entry ${name} has no local header`);
    const lFlags = u16(lp + 6);
    const lMethod = u16(lp + 8);
    const lCsz = u32(lp + 18);
    const lUsz = u32(lp + 22);
    const lNameLen = u16(lp + 26);
    const lExtraLen = u16(lp + 28);
    if (hasZip64Extra(view, lp + 30 + lNameLen, lExtraLen)) {
      throw new ImportError("unsupported_format", fileName, `${fileName} uses ZIP64 entries, which are not supported for XLSX import.`);
    }
    if (lFlags & 0x41) {
      throw new ImportError("unsupported_format", fileName, `${fileName} is encrypted (password-protected); save it without a password and upload it again.`);
    }
    const deferredSizes = (lFlags & 8) !== 0 && lCsz === 0 && lUsz === 0;
    if (lMethod !== method || (!deferredSizes && (lCsz !== csz || lUsz !== usz))) {
      throw corrupt(`entry ${name} has a local header that disagrees with the central directory`);
    }
    const dataStart = lp + 30 + lNameLen + lExtraLen;
    if (dataStart + csz > bytes.length) throw corrupt(`entry ${name} is truncated`);

    if (usz > limits.ratioCheckMinBytes && usz / Math.max(csz, 1) > limits.maxCompressionRatio) {
      throw new ImportError(
        "zip_bomb",
        fileName,
        `${fileName} looks like a zip bomb: entry ${name} would expand ${Math.round(usz / Math.max(csz, 1))}-fold (${formatBytes(csz)} → ${formatBytes(usz)}); the limit is ${limits.maxCompressionRatio}-fold.`,
        { limit: limits.maxCompressionRatio, actual: usz / Math.max(csz, 1) },
      );
    }
    if (usz > limits.maxPartBytes) throw partTooLarge(fileName, name, usz, limits.maxPartBytes);
    total += usz;
    if (total > limits.maxUncompressedBytes) {
      throw new ImportError(
        "zip_bomb",
        fileName,
        `${fileName} would expand to more than ${formatBytes(limits.maxUncompressedBytes)} when unpacked; the limit is ${formatBytes(limits.maxUncompressedBytes)}.`,
        { limit: limits.maxUncompressedBytes, actual: total },
      );
    }
    entries.push({ name, method: method as 0 | 8, compressedSize: csz, uncompressedSize: usz, dataStart });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return { entries, totalUncompressed: total };
}

/** What a part of a workbook holds, for messages ("its shared strings", "a worksheet"). */
function partLabel(name: string): string {
  if (/(^|\/)sharedStrings\d*\.xml$/i.test(name)) return "its shared strings";
  if (/(^|\/)worksheets\/[^/]+\.xml$/i.test(name)) return "a worksheet";
  if (/(^|\/)styles\.xml$/i.test(name)) return "its styles";
  return "one part";
}

function partTooLarge(fileName: string, name: string, size: number | undefined, limit: number): ImportError {
  const label = partLabel(name);
  const verb = label === "its shared strings" || label === "its styles" ? "unpack" : "unpacks";
  const amount = size === undefined ? `to more than ${formatBytes(limit)}` : `to ${formatBytes(size)}`;
  return new ImportError(
    "part_too_large",
    fileName,
    `${fileName}: ${label} (part ${name}) ${verb} ${amount}; the limit is ${formatBytes(limit)} per part. Delete unused sheets, rows, columns or formatting, or split the workbook, then upload it again.`,
    { limit, actual: size },
  );
}

/**
 * Proves the declared sizes (step 2 in the module comment): inflates every deflated entry as a
 * stream and stops at the first byte beyond its declared size, beyond `limits.maxPartBytes`, or
 * once all entries together pass `limits.maxUncompressedBytes` (so the limits hold while
 * inflating even when `dir` was read under other limits).
 * @param bytes the whole file
 * @param dir the result of {@link readZipDirectory}
 * @param fileName for messages
 * @param limits `maxPartBytes` and `maxUncompressedBytes`
 * @throws ImportError `zip_bomb` when an entry expands beyond its declared size or the total
 *   beyond its limit, `part_too_large` when an entry expands beyond the part limit, `corrupt`
 *   when an entry cannot be inflated or is shorter than declared
 */
export async function verifyZipSizes(bytes: Uint8Array, dir: ZipDirectory, fileName: string, limits: ImportLimits): Promise<void> {
  let total = 0;
  for (const e of dir.entries) {
    const cap = Math.min(e.uncompressedSize, limits.maxPartBytes, limits.maxUncompressedBytes - total);
    if (e.method !== 8) {
      // Stored: the size is the one checked against the central directory (csz == usz).
      if (e.uncompressedSize > cap) throw overCap(fileName, e, limits, total);
      total += e.uncompressedSize;
      continue;
    }
    const data = bytes.subarray(e.dataStart, e.dataStart + e.compressedSize);
    let produced: number | "over";
    try {
      produced = await inflatedSizeUpTo(data, cap);
    } catch (cause) {
      throw new ImportError("corrupt", fileName, `${fileName} is not a readable XLSX file (entry ${e.name} cannot be unpacked).`, { cause });
    }
    if (produced === "over" && cap < e.uncompressedSize) throw overCap(fileName, e, limits, total);
    if (produced === "over") {
      throw new ImportError(
        "zip_bomb",
        fileName,
        `${fileName} looks like a zip bomb: entry ${e.name} expands beyond the ${formatBytes(e.uncompressedSize)} it declares.`,
        { limit: e.uncompressedSize },
      );
    }
    if (produced !== e.uncompressedSize) {
      throw new ImportError("corrupt", fileName, `${fileName} is not a readable XLSX file (entry ${e.name} is shorter than declared).`);
    }
    total += produced;
  }
}

/** The refusal for an entry that passes the part or the total limit while inflating. */
function overCap(fileName: string, e: ZipEntryInfo, limits: ImportLimits, before: number): ImportError {
  if (e.uncompressedSize > limits.maxPartBytes) return partTooLarge(fileName, e.name, undefined, limits.maxPartBytes);
  return new ImportError(
    "zip_bomb",
    fileName,
    `${fileName} would expand to more than ${formatBytes(limits.maxUncompressedBytes)} when unpacked; the limit is ${formatBytes(limits.maxUncompressedBytes)}.`,
    { limit: limits.maxUncompressedBytes, actual: before + e.uncompressedSize },
  );
}

/**
 * Runs {@link readZipDirectory} then {@link verifyZipSizes}.
 * @returns the checked directory
 * @throws ImportError as the two steps do
 */
export async function guardZip(bytes: Uint8Array, fileName: string, limits: ImportLimits): Promise<ZipDirectory> {
  const dir = readZipDirectory(bytes, fileName, limits);
  await verifyZipSizes(bytes, dir, fileName, limits);
  return dir;
}

function hasZip64Extra(view: DataView, start: number, length: number): boolean {
  let p = start;
  const end = Math.min(start + length, view.byteLength);
  while (p + 4 <= end) {
    const id = view.getUint16(p, true);
    const size = view.getUint16(p + 2, true);
    if (id === 0x0001) return true;
    p += 4 + size;
  }
  return false;
}

/** Inflates raw-deflate `data`, counting output; returns "over" once more than `cap` bytes came out. */
async function inflatedSizeUpTo(data: Uint8Array, cap: number): Promise<number | "over"> {
  const stream = new DecompressionStream("deflate-raw");
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const writing = writer
    .write(data as Uint8Array<ArrayBuffer>)
    .then(() => writer.close())
    .catch(() => undefined);
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > cap) {
        await reader.cancel().catch(() => undefined);
        return "over";
      }
    }
  } catch (e) {
    await writer.abort().catch(() => undefined);
    throw e;
  }
  await writing;
  return total;
}
