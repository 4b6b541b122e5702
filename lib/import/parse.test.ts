import { describe, expect, it } from "vitest";
import { ImportError, formatBytes, isImportError } from "./errors";
import { fixture, utf8 } from "./fixtures/load";
import { detectFormat } from "./format";
import { DEFAULT_LIMITS, resolveLimits } from "./limits";
import { parseFile } from "./parse";

describe("limits", () => {
  it("defaults to 4 MB and 5,000 rows", () => {
    expect(DEFAULT_LIMITS.maxBytes).toBe(4 * 1024 * 1024);
    expect(DEFAULT_LIMITS.maxRows).toBe(5000);
    expect(resolveLimits({ maxRows: 10 }).maxRows).toBe(10);
    expect(resolveLimits({ maxRows: undefined }).maxRows).toBe(5000);
    expect(() => resolveLimits({ maxBytes: -1 })).toThrow(RangeError);
    expect(formatBytes(4 * 1024 * 1024)).toBe("4 MB");
    expect(formatBytes(1536)).toBe("1.5 KB");
  });
});

describe("parseFile", () => {
  it("refuses a file over the byte limit before decoding it", async () => {
    const bytes = new Uint8Array(4 * 1024 * 1024 + 1).fill(0xff);
    const err = await parseFile(bytes, "huge.csv").catch((e: unknown) => e);
    expect(isImportError(err)).toBe(true);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as ImportError).toJSON()).toEqual({
      code: "too_large",
      fileName: "huge.csv",
      limit: 4194304,
      actual: 4194305,
      message: "huge.csv is 4.0 MB (4,194,305 bytes); the limit is 4 MB (4,194,304 bytes). Split the file or remove rows, then upload it again.",
    });
  });

  it("uses the limits passed in", async () => {
    await expect(parseFile(utf8("q\n1\n2\n"), "small.csv", { limits: { maxBytes: 4 } })).rejects.toMatchObject({ code: "too_large" });
    await expect(parseFile(utf8("q\n1\n2\n"), "small.csv", { limits: { maxRows: 1 } })).rejects.toMatchObject({ code: "too_many_rows" });
  });

  it("dispatches by extension and honours forced options", async () => {
    expect((await parseFile(fixture("csv/tab.tsv"), "tab.tsv")).delimiter).toBe("\t");
    expect((await parseFile(fixture("jsonl/blank-and-bad.jsonl"), "x.ndjson")).format).toBe("jsonl");
    expect((await parseFile(fixture("xlsx/multi-sheet.xlsx"), "m.xlsx", { sheet: "Cases" })).rows).toEqual([["2+2?", "4"]]);
    expect((await parseFile(utf8("a;b\n1;2"), "data", { format: "csv", delimiter: ";" })).rows).toEqual([["1", "2"]]);
  });
});

describe("detectFormat", () => {
  it("uses the extension, refuses unknown and legacy types", () => {
    expect(detectFormat(utf8(""), "a.CSV")).toBe("csv");
    expect(detectFormat(utf8(""), "a.txt")).toBe("csv");
    expect(detectFormat(utf8(""), "a.xlsm")).toBe("xlsx");
    expect(detectFormat(utf8(""), "a.json")).toBe("json");
    expect(detectFormat(utf8(""), "a.jsonl")).toBe("jsonl");
    expect(() => detectFormat(utf8(""), "a.pdf")).toThrow("a.pdf is not a supported file type; upload CSV, XLSX, JSON or JSONL.");
    expect(() => detectFormat(utf8(""), "a.ods")).toThrow(ImportError);
  });

  it("sniffs the bytes when there is no extension", () => {
    expect(detectFormat(fixture("xlsx/types.xlsx"), "upload")).toBe("xlsx");
    expect(detectFormat(utf8(' [{"a":1}]'), "upload")).toBe("json");
    expect(detectFormat(utf8('{"a":1}\n{"a":2}\n'), "upload")).toBe("jsonl");
    expect(detectFormat(utf8('{"a":\n1}'), "upload")).toBe("json");
    expect(detectFormat(utf8("a,b\n1,2"), "upload")).toBe("csv");
  });
});
