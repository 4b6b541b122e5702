import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { tableRecords, toCsv, toJsonl } from "./export";
import { utf8 } from "./fixtures/load";
import { parseFile } from "./parse";

describe("toCsv", () => {
  it("writes RFC 4180 CSV: CRLF, quotes only where needed, doubled quotes", () => {
    expect(toCsv([{ a: "plain", b: "x,y", c: 'say "hi"', d: "two\nlines" }])).toBe('a,b,c,d\r\nplain,"x,y","say ""hi""","two\nlines"');
  });

  it("escapes cells that a spreadsheet would run as formulas (=, +, -, @, tab, CR), also multi-line ones", () => {
    const csv = toCsv([{ v: "=1+1" }, { v: "+SUM(A1)" }, { v: "-5" }, { v: "@cmd" }, { v: "\tx" }, { v: "\rx" }, { v: "=A1\n=B1" }, { v: "a=b" }]);
    expect(csv).toBe(`v\r\n"'=1+1"\r\n"'+SUM(A1)"\r\n"'-5"\r\n"'@cmd"\r\n"'\tx"\r\n"'\rx"\r\n"'=A1\n=B1"\r\na=b`);
  });

  it("escapes header names too, fills missing cells, honours column order and BOM", () => {
    expect(toCsv([{ "=h": "1" }, { other: "2" }])).toBe('"\'=h",other\r\n1,\r\n,2');
    expect(toCsv([{ a: "1", b: "2" }], { columns: ["b", "a"], bom: true, newline: "\n" })).toBe("\uFEFFb,a\n2,1");
    expect(toCsv([{ a: null, b: undefined, c: 3, d: true }])).toBe("a,b,c,d\r\n,,3,true");
  });

  it("round-trips through the importer (except the formula prefix)", async () => {
    const rows = [
      { id: "1", text: 'He said "hi", then\nleft', n: "007" },
      { id: "2", text: "naïve – €", n: "1e5" },
    ];
    const t = await parseFile(utf8(toCsv(rows)), "round.csv");
    expect(tableRecords(t)).toEqual(rows);
    const parsed = Papa.parse<string[]>(toCsv([{ v: "=1" }]), { header: false });
    expect(parsed.data).toEqual([["v"], ["'=1"]]);
  });
});

describe("toJsonl", () => {
  it("writes one compact object per line with string values", () => {
    expect(toJsonl([{ a: "1", b: "x\ny" }, { b: "2" }])).toBe('{"a":"1","b":"x\\ny"}\n{"a":"","b":"2"}\n');
    expect(toJsonl([{ a: "1", b: "2" }], ["b"])).toBe('{"b":"2"}\n');
  });

  it("round-trips through the importer", async () => {
    // Object.fromEntries makes "__proto__" an own key (an object literal would set the prototype).
    const rows = [
      Object.fromEntries([
        ["q", "=1+1"],
        ["__proto__", "p"],
        ["n", "12345678901234567890"],
      ]),
    ];
    const text = toJsonl(rows);
    expect(text).toBe('{"q":"=1+1","__proto__":"p","n":"12345678901234567890"}\n');
    const t = await parseFile(utf8(text), "r.jsonl");
    expect(t.columns).toEqual(["q", "__proto__", "n"]);
    expect(tableRecords(t)).toEqual(rows);
  });
});
