import { describe, expect, it } from "vitest";
import { rowsChecksCannotUse } from "./check-rows";

describe("rowsChecksCannotUse", () => {
  const rows = [
    { row: 1, expected: "^hel+o$" },
    { row: 2, expected: "[unclosed" },
    { row: 3, expected: "Paris" },
  ];

  it("names the rows whose expected result is not a valid regular expression for the regex check", () => {
    const problems = rowsChecksCannotUse([{ kind: "regex" }], rows);
    expect(problems.map((p) => [p.row, p.kind])).toEqual([[2, "regex"]]);
    expect(problems[0].message).toMatch(/^Row 2: the regex check cannot be made from this row: pattern is not a valid regular expression/);
  });

  it("finds nothing for checks that read the case's own expected result, or with no check", () => {
    expect(rowsChecksCannotUse([{ kind: "exact" }, { kind: "contains" }], rows)).toEqual([]);
    expect(rowsChecksCannotUse([], rows)).toEqual([]);
  });
});
