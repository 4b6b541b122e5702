import { describe, expect, it } from "vitest";
import { fixture } from "./fixtures/load";
import { sharedStringsBomb } from "./fixtures/hostile-xlsx";
import { resolveLimits } from "./limits";
import { guardZip, looksLikeZip, readZipDirectory, verifyZipSizes } from "./zip-guard";

const limits = resolveLimits();
const MB = 1024 * 1024;

describe("ZIP central directory check", () => {
  it("lists the entries of a normal workbook with their declared sizes", async () => {
    const bytes = fixture("xlsx/types.xlsx");
    expect(looksLikeZip(bytes)).toBe(true);
    const dir = await guardZip(bytes, "types.xlsx", limits);
    const names = dir.entries.map((e) => e.name);
    expect(names).toContain("xl/workbook.xml");
    expect(names).toContain("xl/worksheets/sheet1.xml");
    expect(dir.entries.every((e) => e.method === 8)).toBe(true);
    expect(dir.totalUncompressed).toBe(dir.entries.reduce((n, e) => n + e.uncompressedSize, 0));
  });

  it("refuses by ratio, by total size and by entry count", () => {
    const bomb = fixture("xlsx/zip-bomb.xlsx");
    expect(() => readZipDirectory(bomb, "b.xlsx", limits)).toThrow("would expand 1029-fold");
    expect(() => readZipDirectory(bomb, "b.xlsx", resolveLimits({ maxCompressionRatio: 5000, maxPartBytes: 128 * MB }))).toThrow(
      "b.xlsx would expand to more than 32 MB when unpacked; the limit is 32 MB.",
    );
    const small = fixture("xlsx/types.xlsx");
    expect(() => readZipDirectory(small, "s.xlsx", resolveLimits({ maxZipEntries: 3 }))).toThrow(/s\.xlsx contains \d+ archive entries; the limit is 3\./);
  });

  it("accepts the bomb's directory with raised limits, and the streaming check confirms honest sizes", async () => {
    const bomb = fixture("xlsx/zip-bomb.xlsx");
    const raised = resolveLimits({ maxCompressionRatio: 5000, maxUncompressedBytes: 128 * MB, maxPartBytes: 128 * MB });
    const dir = readZipDirectory(bomb, "b.xlsx", raised);
    await expect(verifyZipSizes(bomb, dir, "b.xlsx", raised)).resolves.toBeUndefined();
  });

  it("catches entries that inflate beyond their declared size", async () => {
    const lying = fixture("xlsx/lying-sizes.xlsx");
    const dir = readZipDirectory(lying, "l.xlsx", limits);
    expect(dir.entries.find((e) => e.name === "xl/worksheets/sheet1.xml")?.uncompressedSize).toBe(4000);
    await expect(verifyZipSizes(lying, dir, "l.xlsx", limits)).rejects.toMatchObject({ code: "zip_bomb" });
  });

  it("refuses encrypted entries and local headers that disagree with the directory", () => {
    const bytes = new Uint8Array(fixture("xlsx/types.xlsx"));
    const view = new DataView(bytes.buffer);
    // Flip the "encrypted" flag of the first local header.
    const encrypted = new Uint8Array(bytes);
    new DataView(encrypted.buffer).setUint16(6, 1, true);
    expect(() => readZipDirectory(encrypted, "e.xlsx", limits)).toThrow("e.xlsx is encrypted (password-protected)");
    // Change the first local header's uncompressed size.
    const mismatched = new Uint8Array(bytes);
    new DataView(mismatched.buffer).setUint32(22, view.getUint32(22, true) + 1, true);
    expect(() => readZipDirectory(mismatched, "m.xlsx", limits)).toThrow("has a local header that disagrees with the central directory");
  });

  it("refuses bytes without an end-of-directory record", () => {
    expect(() => readZipDirectory(new Uint8Array([0x50, 0x4b, 3, 4, 0, 0]), "x.xlsx", limits)).toThrow(
      "x.xlsx is not a readable XLSX file (no ZIP end-of-directory record).",
    );
  });
});

describe("inflated size of each part (issue 'Seal the server', item 9)", () => {
  // 62 MB of shared strings in a 2.2 MB file: within the byte, entry, ratio and total limits.
  const bomb = sharedStringsBomb(62 * MB);

  it("refuses a workbook whose shared strings unpack beyond the part limit from its directory alone, naming the part and the limit", () => {
    expect(bomb.length).toBeLessThan(limits.maxBytes);
    let refusal: unknown;
    try {
      readZipDirectory(bomb, "strings.xlsx", limits); // synchronous: nothing is inflated
    } catch (e) {
      refusal = e;
    }
    expect(refusal).toMatchObject({
      code: "part_too_large",
      limit: 16 * MB,
      message:
        "strings.xlsx: its shared strings (part xl/sharedStrings.xml) unpack to 62.0 MB; the limit is 16 MB per part. Delete unused sheets, rows, columns or formatting, or split the workbook, then upload it again.",
    });
    expect((refusal as { actual: number }).actual).toBeGreaterThan(62 * MB);
  });

  it("takes the part limit from the limits: the same file passes the directory check with a higher one", () => {
    const dir = readZipDirectory(bomb, "strings.xlsx", resolveLimits({ maxPartBytes: 64 * MB, maxUncompressedBytes: 64 * MB }));
    expect(dir.entries.find((e) => e.name === "xl/sharedStrings.xml")?.uncompressedSize).toBeGreaterThan(62 * MB);
    const small = sharedStringsBomb(2 * MB);
    expect(() => readZipDirectory(small, "s.xlsx", limits)).not.toThrow();
    expect(() => readZipDirectory(small, "s.xlsx", resolveLimits({ maxPartBytes: MB }))).toThrow(
      /^s\.xlsx: its shared strings \(part xl\/sharedStrings\.xml\) unpack to 2\.0 MB; the limit is 1 MB per part\./,
    );
  });

  it("names a worksheet part by what it is", () => {
    const bombSheet = fixture("xlsx/zip-bomb.xlsx");
    expect(() => readZipDirectory(bombSheet, "w.xlsx", resolveLimits({ maxCompressionRatio: 5000 }))).toThrow(
      "w.xlsx: a worksheet (part xl/worksheets/sheet1.xml) unpacks to 64 MB; the limit is 16 MB per part.",
    );
  });

  it("enforces it while inflating too: shared strings that declare 1 MB but inflate to 20 MB are stopped", async () => {
    const lying = sharedStringsBomb(20 * MB, MB);
    await expect(guardZip(lying, "lying.xlsx", limits)).rejects.toMatchObject({
      code: "zip_bomb",
      message: "lying.xlsx looks like a zip bomb: entry xl/sharedStrings.xml expands beyond the 1 MB it declares.",
    });
  });

  it("enforces the part and total limits while inflating even with a directory read under other limits", async () => {
    const dir = readZipDirectory(bomb, "strings.xlsx", resolveLimits({ maxPartBytes: 64 * MB, maxUncompressedBytes: 64 * MB }));
    await expect(verifyZipSizes(bomb, dir, "strings.xlsx", limits)).rejects.toMatchObject({ code: "part_too_large", limit: 16 * MB });
  });
});
