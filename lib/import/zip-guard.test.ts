import { describe, expect, it } from "vitest";
import { fixture } from "./fixtures/load";
import { resolveLimits } from "./limits";
import { guardZip, looksLikeZip, readZipDirectory, verifyZipSizes } from "./zip-guard";

const limits = resolveLimits();

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
    expect(() => readZipDirectory(bomb, "b.xlsx", resolveLimits({ maxCompressionRatio: 5000 }))).toThrow(
      "b.xlsx would expand to more than 64 MB when unpacked; the limit is 64 MB.",
    );
    const small = fixture("xlsx/types.xlsx");
    expect(() => readZipDirectory(small, "s.xlsx", resolveLimits({ maxZipEntries: 3 }))).toThrow(/s\.xlsx contains \d+ archive entries; the limit is 3\./);
  });

  it("accepts the bomb's directory with raised limits, and the streaming check confirms honest sizes", async () => {
    const bomb = fixture("xlsx/zip-bomb.xlsx");
    const dir = readZipDirectory(bomb, "b.xlsx", resolveLimits({ maxCompressionRatio: 5000, maxUncompressedBytes: 128 * 1024 * 1024 }));
    await expect(verifyZipSizes(bomb, dir, "b.xlsx")).resolves.toBeUndefined();
  });

  it("catches entries that inflate beyond their declared size", async () => {
    const lying = fixture("xlsx/lying-sizes.xlsx");
    const dir = readZipDirectory(lying, "l.xlsx", limits);
    expect(dir.entries.find((e) => e.name === "xl/worksheets/sheet1.xml")?.uncompressedSize).toBe(4000);
    await expect(verifyZipSizes(lying, dir, "l.xlsx")).rejects.toMatchObject({ code: "zip_bomb" });
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
