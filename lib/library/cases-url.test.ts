import { describe, expect, it } from "vitest";
import { casesHref, parseCasesParams } from "./cases-url";

describe("cases URL state", () => {
  it("parses every field and ignores junk", () => {
    expect(parseCasesParams({ source: "dataset", status: "paused", prompt: "solver", q: "eggs", page: "3", sort: "id-asc", case: "12", rev: "2" })).toEqual({
      source: "dataset",
      status: "paused",
      prompt: "solver",
      q: "eggs",
      page: 3,
      sort: "id-asc",
      caseId: 12,
      rev: 2,
      adding: false,
    });
    expect(parseCasesParams({ source: "bogus", status: "x", page: "-4", sort: "drop table", case: "1e9", q: "   " })).toEqual({
      page: 1,
      sort: "updated-desc",
      adding: false,
      source: undefined,
      status: undefined,
      prompt: undefined,
      q: undefined,
      caseId: undefined,
      rev: undefined,
    });
    expect(parseCasesParams({ source: ["custom", "dataset"] }).source).toBe("custom");
  });

  it("round-trips and resets the page when a filter changes", () => {
    const s = parseCasesParams({ source: "custom", page: "4", q: "a b" });
    expect(casesHref("/l", s, { page: 5 })).toBe("/l?source=custom&q=a+b&page=5");
    expect(casesHref("/l", s, { source: "dataset" })).toBe("/l?source=dataset&q=a+b");
    expect(casesHref("/l", s, { source: undefined, q: undefined })).toBe("/l");
    expect(casesHref("/l", s, { caseId: 9, rev: 2 })).toBe("/l?source=custom&q=a+b&page=4&case=9&rev=2");
    expect(parseCasesParams(Object.fromEntries(new URLSearchParams("source=custom&q=a+b&page=5")))).toMatchObject({ source: "custom", q: "a b", page: 5 });
  });
});

describe("case form validation", () => {
  it("refuses an empty conversation turn but keeps an imported raw one", async () => {
    const { caseFieldsSchema } = await import("./forms");
    const base = { input: "q", expected: "a", notes: "", variables: [], context: [] };
    const bad = caseFieldsSchema.safeParse({ ...base, history: [{ role: "user", content: "  " }] });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]).toMatchObject({ path: ["history", 0, "content"], message: "Turn text is required (remove the turn if it is not needed)." });
    expect(caseFieldsSchema.safeParse({ ...base, history: [{ role: "tool", content: "", raw: '{"tool_calls":[]}', replayable: false }] }).success).toBe(true);
  });
});
