import { describe, expect, it } from "vitest";
import { parseCsv, detectDelimiter } from "./csv";
import { ImportError } from "./errors";
import { fixture, utf8 } from "./fixtures/load";
import { resolveLimits } from "./limits";
import { parseFile } from "./parse";

const limits = resolveLimits();
const csv = (path: string) => parseCsv(fixture(path), path.split("/").pop()!, limits);

describe("CSV: every cell is text, exactly as written", () => {
  it("keeps 007, 1e5, big integers, TRUE, -0, 0.10 and surrounding spaces", () => {
    const t = csv("csv/comma-basic.csv");
    expect(t.format).toBe("csv");
    expect(t.encoding).toBe("utf-8");
    expect(t.delimiter).toBe(",");
    expect(t.columns).toEqual(["id", "question", "answer", "count", "flag"]);
    expect(t.rows).toEqual([
      ["q-001", "What is 2+2?", "4", "007", "TRUE"],
      ["q-002", "  Spaces kept  ", "1e5", "12345678901234567890", "false"],
      ["q-003", "Comma, inside", 'Quote "inside"', "-0", "0.10"],
    ]);
    expect(t.rowSources).toEqual([2, 3, 4]);
    expect(t.sourceKind).toBe("line");
    expect(t.problems).toEqual([]);
  });
});

describe("CSV delimiters", () => {
  it("detects semicolons (decimal commas stay in the cells)", () => {
    const t = csv("csv/semicolon.csv");
    expect(t.delimiter).toBe(";");
    expect(t.columns).toEqual(["question", "answer", "score"]);
    expect(t.rows).toEqual([
      ["Price of a coffee?", "2,50 €", "1,5"],
      ["Is 1,000 a number?", "yes", "0,75"],
    ]);
  });

  it("detects tabs (commas in text do not confuse it; a quoted tab stays)", () => {
    const t = csv("csv/tab.tsv");
    expect(t.delimiter).toBe("\t");
    expect(t.rows).toEqual([
      ["Hello, world?", "Hi, there", "comma, inside"],
      ["Second", "2", "tab\tinside"],
    ]);
  });

  it("detects pipes", () => {
    const t = csv("csv/pipe.csv");
    expect(t.delimiter).toBe("|");
    expect(t.columns).toEqual(["question", "answer", "tags"]);
    expect(t.rows).toEqual([
      ["What is a pipe?", 'A "|" character', "csv, delimiters"],
      ["Two?", "2", "math"],
    ]);
  });

  it("falls back to the comma for a one-column file", () => {
    const t = csv("csv/single-column.csv");
    expect(t.delimiter).toBe(",");
    expect(t.columns).toEqual(["question"]);
    expect(t.rows).toEqual([["What is 2+2?"], ["Capital of France?"]]);
  });

  it("honours a forced delimiter", () => {
    const t = parseCsv(utf8("a;b,c\n1;2,3\n"), "x.csv", limits, { delimiter: "," });
    expect(t.delimiter).toBe(",");
    expect(t.columns).toEqual(["a;b", "c"]);
  });

  it("prefers the delimiter that splits rows consistently", () => {
    expect(detectDelimiter("a,b;c\n1,2;3\n4,5;6\n")).toBe(",");
    expect(detectDelimiter("q;a\nx, y;z\nw;v\n")).toBe(";");
  });
});

describe("CSV quoting and line ends", () => {
  it("reads quoted delimiters, doubled quotes and line breaks; lines count from the record start", () => {
    const t = csv("csv/quoted-newlines.csv");
    expect(t.rows).toEqual([
      ["1", "Line one\nline two", 'He said "hi", then left'],
      ["2", "A, B and C", "multi\nline\nanswer"],
      ["3", "plain", 'ends with quote "'],
    ]);
    expect(t.rowSources).toEqual([2, 4, 7]);
    expect(t.problems).toEqual([]);
  });

  it("accepts CRLF, LF and lone CR mixed; a CRLF inside a quoted cell is stored as \\n", () => {
    const t = csv("csv/crlf-lf-mix.csv");
    expect(t.columns).toEqual(["id", "text"]);
    expect(t.rows).toEqual([
      ["1", "first"],
      ["2", "two\nlines"],
      ["3", "third"],
      ["4", "fourth"],
    ]);
    expect(t.rowSources).toEqual([2, 3, 5, 6]);
  });

  it("reports an unclosed quote at the line where the record starts", () => {
    const t = csv("csv/unclosed-quote.csv");
    expect(t.rows).toEqual([
      ["ok", "fine"],
      ["broken,value\nnext,line\n", ""],
    ]);
    expect(t.problems).toEqual([
      {
        severity: "error",
        code: "unclosed_quote",
        line: 3,
        message: "Line 3: a quoted field is never closed, so the rest of the file was read into it.",
      },
      {
        severity: "warning",
        code: "ragged_row",
        line: 3,
        row: 2,
        message: "Line 3 has 1 field but the header has 2; the missing cells are empty.",
      },
    ]);
  });
});

describe("CSV encodings", () => {
  const expected = [
    ["Café crème?", "Yes – 5 €"],
    ["“Quoted” text", "naïve"],
  ];

  it.each([
    ["csv/utf8-bom.csv", "utf-8"],
    ["csv/utf16le-bom.csv", "utf-16le"],
    ["csv/utf16be-bom.csv", "utf-16be"],
    ["csv/utf16le-no-bom.csv", "utf-16le"],
  ])("%s is read as %s and the BOM is not part of the first header", (path, encoding) => {
    const t = csv(path);
    expect(t.encoding).toBe(encoding);
    expect(t.columns).toEqual(["question", "answer"]);
    expect(t.rows).toEqual(expected);
    expect(t.problems).toEqual([]);
  });

  it("reads invalid UTF-8 as Windows-1252 and says so", () => {
    const t = csv("csv/windows-1252.csv");
    expect(t.encoding).toBe("windows-1252");
    expect(t.rows).toEqual(expected);
    expect(t.problems).toEqual([
      {
        severity: "warning",
        code: "encoding_fallback",
        message: "windows-1252.csv is not valid UTF-8; it was read as Windows-1252.",
      },
    ]);
  });
});

describe("CSV headers and rows", () => {
  it("makes duplicate and empty header names unique, with a warning each", () => {
    const t = csv("csv/duplicate-headers.csv");
    expect(t.columns).toEqual(["question", "answer", "answer_3", "column_4", "answer_2", "answer_4", "column_7"]);
    expect(t.rows).toEqual([["q1", "a1", "a2", "x", "b", "c", "y"]]);
    expect(t.problems).toEqual([
      {
        severity: "warning",
        code: "duplicate_header",
        line: 1,
        column: "answer_3",
        message: 'Header "answer" appears more than once; column 3 is stored as "answer_3".',
      },
      { severity: "warning", code: "empty_header", line: 1, column: "column_4", message: 'Column 4 has no header name; it is stored as "column_4".' },
      {
        severity: "warning",
        code: "duplicate_header",
        line: 1,
        column: "answer_4",
        message: 'Header "answer" appears more than once; column 6 is stored as "answer_4".',
      },
      { severity: "warning", code: "empty_header", line: 1, column: "column_7", message: 'Column 7 has no header name; it is stored as "column_7".' },
    ]);
  });

  it("reports rows with too few or too many fields by line, keeping every value", () => {
    const t = csv("csv/ragged.csv");
    expect(t.columns).toEqual(["question", "answer", "notes", "column_4"]);
    expect(t.rows).toEqual([
      ["full", "row", "here", ""],
      ["too few", "fields", "", ""],
      ["too", "many", "fields", "extra value"],
      ["trailing", "empties", "here", ""],
      ["back", "to", "normal", ""],
    ]);
    expect(t.problems).toEqual([
      { severity: "warning", code: "ragged_row", line: 3, row: 2, message: "Line 3 has 2 fields but the header has 3; the missing cells are empty." },
      {
        severity: "error",
        code: "ragged_row",
        line: 4,
        row: 3,
        message: 'Line 4 has 4 fields but the header has 3; the extra values are kept in "column_4". Check the delimiter and quoting of this line.',
      },
      {
        severity: "warning",
        code: "ragged_row",
        line: 5,
        row: 4,
        message: "Line 5 has 5 fields but the header has 3; the extra fields are empty and were ignored.",
      },
    ]);
  });

  it("ignores fully empty trailing rows silently and skips empty rows inside with a warning", () => {
    const t = csv("csv/trailing-empty.csv");
    expect(t.rows).toEqual([
      ["q1", "a1"],
      ["q2", "a2"],
      [" q3 ", "a3"],
    ]);
    expect(t.rowSources).toEqual([2, 4, 6]);
    expect(t.problems).toEqual([
      { severity: "warning", code: "empty_row", line: 3, message: "Line 3 is empty and was skipped." },
      { severity: "warning", code: "empty_row", line: 5, message: "Line 5 is empty and was skipped." },
    ]);
  });

  it("treats whitespace-only lines as blank: ignored at the end, skipped with a warning inside", () => {
    const t = parseCsv(utf8("question,answer\nq1,a1\n  \t \nq2,a2\n \n   \n"), "ws.csv", limits);
    expect(t.rows).toEqual([
      ["q1", "a1"],
      ["q2", "a2"],
    ]);
    expect(t.rowSources).toEqual([2, 4]);
    expect(t.problems).toEqual([{ severity: "warning", code: "empty_row", line: 3, message: "Line 3 is empty and was skipped." }]);
    // Spaces between delimiters are blank too; a cell with text keeps its spaces.
    const u = parseCsv(utf8("question,answer\n q1 ,a1\n  ,  \n"), "ws2.csv", limits);
    expect(u.rows).toEqual([[" q1 ", "a1"]]);
    expect(u.problems).toEqual([]);
  });

  it("warns about a header without data rows", () => {
    const t = parseCsv(utf8("question,answer\n"), "h.csv", limits);
    expect(t.rows).toEqual([]);
    expect(t.problems).toEqual([{ severity: "warning", code: "no_rows", message: "h.csv has a header but no data rows." }]);
  });
});

describe("CSV limits", () => {
  it("refuses a file over the row limit, naming the file and the limit", () => {
    const text = "q,a\n" + Array.from({ length: 11 }, (_, i) => `q${i},a${i}`).join("\n");
    const run = () => parseCsv(utf8(text), "big.csv", resolveLimits({ maxRows: 10 }));
    expect(run).toThrow(ImportError);
    expect(run).toThrow("big.csv has more than 10 data rows; the limit is 10 rows.");
    try {
      run();
    } catch (e) {
      expect((e as ImportError).code).toBe("too_many_rows");
      expect((e as ImportError).limit).toBe(10);
    }
  });

  it("accepts exactly the row limit; trailing empty rows do not count", () => {
    const text = "q,a\n" + Array.from({ length: 10 }, (_, i) => `q${i},a${i}`).join("\n") + "\n,\n\n";
    expect(parseCsv(utf8(text), "ok.csv", resolveLimits({ maxRows: 10 })).rows).toHaveLength(10);
  });

  it("refuses too many columns", () => {
    const header = Array.from({ length: 6 }, (_, i) => `c${i}`).join(",");
    expect(() => parseCsv(utf8(header + "\n1,2,3,4,5,6\n"), "wide.csv", resolveLimits({ maxColumns: 5 }))).toThrow(
      "wide.csv has 6 columns; the limit is 5 columns.",
    );
  });

  it("refuses an empty file", async () => {
    await expect(parseFile(utf8("\uFEFF \n\n"), "empty.csv")).rejects.toMatchObject({ code: "empty_file", message: "empty.csv is empty." });
    await expect(parseFile(new Uint8Array(0), "zero.csv")).rejects.toMatchObject({ code: "empty_file" });
  });
});

describe("CSV with CRLF only", () => {
  it("removes the CRs from cells, including quoted and empty last fields", () => {
    const text = 'a,b,c\r\n1,"x\r\ny","q"\r\n2,,\r\n3,"say ""hi""",z\r\n\r\n';
    const t = parseCsv(utf8(text), "crlf.csv", limits);
    expect(t.columns).toEqual(["a", "b", "c"]);
    expect(t.rows).toEqual([
      ["1", "x\ny", "q"],
      ["2", "", ""],
      ["3", 'say "hi"', "z"],
    ]);
    expect(t.rowSources).toEqual([2, 4, 5]);
    expect(t.problems).toEqual([]);
  });
});

describe("CSV quote quirks (papaparse grammar)", () => {
  it("keeps a quote inside an unquoted field and reports text after a closing quote", () => {
    expect(parseCsv(utf8('a,b\n5" screen,x\n'), "q.csv", limits).rows).toEqual([['5" screen', "x"]]);
    const t = parseCsv(utf8('a,b\n"abc"def,x\n'), "q.csv", limits);
    expect(t.problems.map((p) => [p.code, p.line])).toEqual([
      ["invalid_quotes", 2],
      ["unclosed_quote", 2],
      ["ragged_row", 2],
    ]);
  });
});
