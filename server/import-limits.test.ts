import { describe, expect, it, vi } from "vitest";
import { importLimitsFromEnv } from "./import-limits";

describe("importLimitsFromEnv", () => {
  it("uses 4 MB and 5,000 rows by default and takes valid overrides from the environment", () => {
    expect(importLimitsFromEnv({})).toMatchObject({ maxBytes: 4 * 1024 * 1024, maxRows: 5000 });
    expect(importLimitsFromEnv({ BENCHWORK_IMPORT_MAX_BYTES: "1000", BENCHWORK_IMPORT_MAX_ROWS: " 20 " })).toMatchObject({ maxBytes: 1000, maxRows: 20 });
  });

  it("bounds each unpacked XLSX part to 16 MB and the whole workbook to 32 MB by default, both from the environment", () => {
    expect(importLimitsFromEnv({})).toMatchObject({ maxPartBytes: 16 * 1024 * 1024, maxUncompressedBytes: 32 * 1024 * 1024 });
    expect(importLimitsFromEnv({ BENCHWORK_IMPORT_MAX_PART_BYTES: "1048576", BENCHWORK_IMPORT_MAX_UNPACKED_BYTES: "2097152" })).toMatchObject({
      maxPartBytes: 1048576,
      maxUncompressedBytes: 2097152,
    });
  });

  it("ignores a value that is not a positive whole number, with a warning", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(importLimitsFromEnv({ BENCHWORK_IMPORT_MAX_BYTES: "4MB", BENCHWORK_IMPORT_MAX_ROWS: "0" })).toMatchObject({
      maxBytes: 4 * 1024 * 1024,
      maxRows: 5000,
    });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("BENCHWORK_IMPORT_MAX_BYTES"));
    warn.mockRestore();
  });
});
