import { describe, expect, it } from "vitest";
import { fixture, utf8 } from "./fixtures/load";
import { parseJsonl } from "./jsonl";
import { resolveLimits } from "./limits";

const limits = resolveLimits();

describe("JSONL", () => {
  it("skips blank lines, reports bad and non-object lines by number, keeps number text", () => {
    const t = parseJsonl(fixture("jsonl/blank-and-bad.jsonl"), "blank-and-bad.jsonl", limits);
    expect(t.format).toBe("jsonl");
    expect(t.columns).toEqual(["id", "question", "score", "extra"]);
    expect(t.rows).toEqual([
      ["1", "first", "1e5", ""],
      ["2", "second", "", '{"n":12345678901234567890}'],
      ["4", "last", "", ""],
    ]);
    expect(t.rowSources).toEqual([1, 3, 7]);
    expect(t.problems).toEqual([
      {
        severity: "error",
        code: "invalid_json_line",
        line: 4,
        message: 'Line 4 is not valid JSON (unexpected character "b" at column 23); it was not imported.',
      },
      { severity: "error", code: "not_an_object", line: 5, message: "Line 5 is an array, not a JSON object; it was not imported." },
    ]);
  });

  it("reorders nothing: columns follow first appearance across lines", () => {
    const t = parseJsonl(utf8('{"b":"1"}\n{"a":"2","b":"3"}\n'), "o.jsonl", limits);
    expect(t.columns).toEqual(["b", "a"]);
    expect(t.rows).toEqual([
      ["1", ""],
      ["3", "2"],
    ]);
  });

  it("refuses a file where no line is an object", () => {
    expect(() => parseJsonl(utf8("not json\nalso not\n"), "x.jsonl", limits)).toThrow(
      "x.jsonl has no line that is a JSON object (2 unreadable lines); it is not JSON Lines.",
    );
  });

  it("counts rows against the limit", () => {
    const text = Array.from({ length: 6 }, (_, i) => `{"q":"${i}"}`).join("\n");
    expect(() => parseJsonl(utf8(text), "l.jsonl", resolveLimits({ maxRows: 5 }))).toThrow("l.jsonl has more than 5 data rows");
  });
});
