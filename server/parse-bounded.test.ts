import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { isImportError } from "@/lib/import/errors";
import { DatasetError } from "@/lib/datasets/errors";
import { sharedStringsBomb } from "@/lib/import/fixtures/hostile-xlsx";
import { inspectBounded, parseBounded } from "./parse-bounded";

const fixture = (p: string) => new Uint8Array(readFileSync(`lib/import/fixtures/${p}`));
const utf8 = (s: string) => new TextEncoder().encode(s);

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected a rejection");
}

describe("parseBounded", () => {
  it("parses a CSV in a worker, cells as text", async () => {
    const t = await parseBounded(utf8("question,answer\nWhat is 2+2?,04\n"), "q.csv");
    expect(t.columns).toEqual(["question", "answer"]);
    expect(t.rows).toEqual([["What is 2+2?", "04"]]);
  });

  it("lists the sheets of a multi-sheet workbook", async () => {
    const t = await parseBounded(fixture("xlsx/multi-sheet.xlsx"), "book.xlsx");
    expect(t.needsSheet).toBe(true);
    expect(t.sheets?.length).toBeGreaterThan(1);
  });

  it("passes the import core's refusals through as ImportError (over the limit, corrupt, zip bomb)", async () => {
    const big = await rejection(parseBounded(utf8("a,b\n1,2\n"), "x.csv", { limits: { maxBytes: 4 } }));
    expect(isImportError(big) && big.code).toBe("too_large");
    expect((big as Error).message).toMatch(/x\.csv is 8 bytes.*the limit is 4 bytes/);
    const corrupt = await rejection(parseBounded(fixture("xlsx/not-a-zip.xlsx"), "not-a-zip.xlsx"));
    expect(isImportError(corrupt) && corrupt.code).toBe("corrupt");
    const bomb = await rejection(parseBounded(fixture("xlsx/zip-bomb.xlsx"), "zip-bomb.xlsx"));
    expect(isImportError(bomb) && bomb.code).toBe("zip_bomb");
    const long = await rejection(parseBounded(fixture("xlsx/types.xlsx"), "types.xlsx", { limits: { maxRows: 3 } }));
    expect(isImportError(long) && long.code).toBe("too_many_rows");
    const strings = await rejection(parseBounded(sharedStringsBomb(62 * 1024 * 1024), "strings.xlsx"));
    expect(isImportError(strings) && strings.code).toBe("part_too_large");
    expect((strings as Error).message).toMatch(
      /^strings\.xlsx: its shared strings \(part xl\/sharedStrings\.xml\) unpack to 62\.0 MB; the limit is 16 MB per part\./,
    );
  });

  it("reads a sheet that declares a million rows but holds two", async () => {
    const t = await parseBounded(fixture("xlsx/huge-dimension.xlsx"), "huge.xlsx");
    expect(t.rows).toEqual([
      ["a", "1"],
      ["b", "2"],
    ]);
  });

  it("stops a parse that takes too long and says so", async () => {
    const e = await rejection(parseBounded(utf8("a,b\n1,2\n"), "slow.csv", {}, { timeoutMs: 1 }));
    expect(e).toBeInstanceOf(DatasetError);
    expect((e as DatasetError).code).toBe("parse_timeout");
    expect((e as Error).message).toMatch(/slow\.csv took too long to read/);
  });

  it("stops a parse that needs more memory than allowed", async () => {
    const rows = Array.from({ length: 40_000 }, (_, i) => `row ${i} ${"x".repeat(60)},${i}`).join("\n");
    const e = await rejection(
      parseBounded(utf8(`a,b\n${rows}\n`), "fat.csv", { limits: { maxRows: 100_000, maxBytes: 64 * 1024 * 1024 } }, { maxOldGenerationSizeMb: 4 }),
    );
    expect(e).toBeInstanceOf(DatasetError);
    expect((e as DatasetError).code).toBe("parse_memory");
    expect((e as Error).message).toMatch(/fat\.csv needed more memory than allowed \(4 MB\)/);
  });

  it("inspects in a worker: suggested mapping and problems", async () => {
    const r = await inspectBounded(utf8("question,answer\nHi,\n"), "q.csv");
    expect(r.suggestedMapping.map((a) => a.role)).toEqual(["input", "expected"]);
    expect(r.problems.some((p) => p.code === "missing_expected" && p.row === 1)).toBe(true);
  });
});
