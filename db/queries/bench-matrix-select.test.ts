import { describe, expect, it } from "vitest";
import { selectMatrix, type MatrixRow } from "./bench-matrix";

/** Case `i` (position i, key `case-NNN`): candidate 1 passes it; candidate 2 errors on every third case and fails every fifth. */
function rows(n: number): MatrixRow[] {
  return Array.from({ length: n }, (_, k) => {
    const i = k + 1;
    const errored = i % 3 === 0;
    const failed = !errored && i % 5 === 0;
    const cell = (verdict: "passed" | "failed" | "error", errorTrials: number, firstTrialId: number) => ({
      verdict,
      passedTrials: verdict === "passed" ? 1 : 0,
      scoredTrials: verdict === "error" ? 0 : 1,
      errorTrials,
      trials: 1,
      failedChecks: verdict === "failed" ? 1 : 0,
      firstTrialId,
    });
    return {
      benchCaseId: i,
      position: i,
      caseId: i,
      caseKey: `case-${String(i).padStart(3, "0")}`,
      caseRevisionId: i,
      source: "custom",
      cells: { 1: cell("passed", 0, i * 10 + 1), 2: cell(errored ? "error" : failed ? "failed" : "passed", errored ? 1 : 0, i * 10 + 2) },
    };
  });
}

const keys = (r: { rows: MatrixRow[] }) => r.rows.map((x) => x.caseKey);
const opts = { filter: "all" as const, sort: "position" as const, pageSize: 50, regressionCases: new Set<string>() };

describe("the results matrix pager (selectMatrix)", () => {
  it("shows the next cases on the second page, and the rest on the last", () => {
    const all = rows(120);
    const first = selectMatrix(all, { ...opts, page: 1 });
    const second = selectMatrix(all, { ...opts, page: 2 });
    const third = selectMatrix(all, { ...opts, page: 3 });
    expect(first).toMatchObject({ total: 120, page: 1, pageCount: 3 });
    expect(keys(first)[0]).toBe("case-001");
    expect(keys(first).at(-1)).toBe("case-050");
    expect(keys(second)[0]).toBe("case-051");
    expect(keys(second).at(-1)).toBe("case-100");
    expect(keys(third)).toEqual(Array.from({ length: 20 }, (_, k) => `case-${101 + k}`));
  });

  it("pages a filter within its result: “Errors only” page 2 holds the 51st to 100th errored cases", () => {
    const all = rows(300); // errored: every third case, 100 in all
    const first = selectMatrix(all, { ...opts, filter: "errors", page: 1 });
    const second = selectMatrix(all, { ...opts, filter: "errors", page: 2 });
    expect(first).toMatchObject({ total: 100, page: 1, pageCount: 2 });
    expect(keys(first)[0]).toBe("case-003");
    expect(keys(second)[0]).toBe(`case-${51 * 3}`);
    expect(keys(second).at(-1)).toBe("case-300");
    expect(second.rows.every((r) => r.cells[2].verdict === "error")).toBe(true);
  });

  it("pages “Regressions only” within the regression cases, and keeps a page past the end on the last one", () => {
    const all = rows(200);
    const regressionCases = new Set(Array.from({ length: 60 }, (_, k) => String(200 - k))); // cases 141–200
    const second = selectMatrix(all, { ...opts, filter: "regressions", regressionCases, page: 2 });
    expect(second).toMatchObject({ total: 60, page: 2, pageCount: 2 });
    expect(keys(second)).toEqual(Array.from({ length: 10 }, (_, k) => `case-${191 + k}`));
    expect(selectMatrix(all, { ...opts, filter: "regressions", regressionCases, page: 9 }).page).toBe(2);
  });
});
