import { describe, expect, it } from "vitest";
import { activityHref, activityRange, parseActivityQuery } from "./activity-query";

describe("Activity page URL", () => {
  it("reads filters, sort and page, and drops invalid values", () => {
    const q = parseActivityQuery({
      actor: "ana@example.test",
      action: "case.revise",
      from: "2026-02-30x",
      to: "2026-03-01",
      sort: "bogus",
      dir: "asc",
      page: "3",
    });
    expect(q).toEqual({
      actor: "ana@example.test",
      action: "case.revise",
      subject: undefined,
      subjectId: undefined,
      from: undefined,
      to: "2026-03-01",
      sort: "at",
      dir: "asc",
      page: 3,
    });
    expect(parseActivityQuery({ page: "-1" }).page).toBe(1);
  });

  it("turns the day range into inclusive UTC times", () => {
    expect(activityRange({ from: "2026-03-01", to: "2026-03-01" })).toEqual({ from: Date.UTC(2026, 2, 1), to: Date.UTC(2026, 2, 2) - 1 });
  });

  it("writes links that keep the filters and go back to page 1 when a filter or the sort changes", () => {
    const q = parseActivityQuery({ actor: "bo@example.test", page: "4" });
    expect(activityHref(q, { page: 5 })).toBe("/activity?actor=bo%40example.test&page=5");
    expect(activityHref(q, { sort: "action", dir: "asc" })).toBe("/activity?actor=bo%40example.test&sort=action&dir=asc");
    expect(activityHref(parseActivityQuery({}), {})).toBe("/activity");
  });
});
