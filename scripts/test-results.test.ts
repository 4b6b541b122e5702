/**
 * How `npm test` counts each suite in its closing line `tests: N passed, M failed`: the type-check
 * (`tsc --noEmit`) counts as one passed test when clean and one failed test per type error.
 */
import { describe, expect, it } from "vitest";
import { playwrightResult, suitesToRun, typecheckResult, vitestResult } from "./test-results.mjs";

describe("typecheckResult", () => {
  it("counts a clean tsc run as one passed test", () => {
    expect(typecheckResult(0, "")).toEqual({ passed: 1, failed: 0, notes: [] });
  });

  it("counts each type error as a failed test", () => {
    const out = [
      "lib/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
      "app/page.tsx(10,1): error TS7006: Parameter 'x' implicitly has an 'any' type.",
      "  The expected type comes from property 'n' which is declared here.",
    ].join("\n");
    expect(typecheckResult(2, out)).toEqual({ passed: 0, failed: 2, notes: ["tsc --noEmit: 2 type errors"] });
  });

  it("counts a tsc that failed without naming an error as one failure", () => {
    expect(typecheckResult(1, "error TS5083: Cannot read file 'tsconfig.json'.")).toMatchObject({ passed: 0, failed: 1 });
    expect(typecheckResult(null, "")).toEqual({ passed: 0, failed: 1, notes: ["tsc --noEmit exited with null without reporting a type error"] });
  });
});

describe("vitestResult and playwrightResult", () => {
  it("keep counting as before", () => {
    expect(vitestResult(1, { numPassedTests: 5, numFailedTests: 1, numRuntimeErrorTestSuites: 1 })).toEqual({ passed: 5, failed: 2, notes: [] });
    expect(vitestResult(1, null)).toEqual({ passed: 0, failed: 1, notes: ["vitest exited with 1 without reporting a failed test"] });
    expect(playwrightResult(0, { stats: { expected: 20, flaky: 1, unexpected: 0 } })).toEqual({ passed: 21, failed: 0, notes: [] });
    expect(playwrightResult(1, null).failed).toBe(1);
  });
});

describe("suitesToRun", () => {
  it("runs the type-check, the unit and the e2e tests by default; one or a comma list on request", () => {
    expect(suitesToRun(undefined)).toEqual(["typecheck", "unit", "e2e"]);
    expect(suitesToRun("unit")).toEqual(["unit"]);
    expect(suitesToRun("typecheck,unit")).toEqual(["typecheck", "unit"]);
  });

  it("names an unknown suite", () => {
    expect(() => suitesToRun("units")).toThrow('unknown test suite "units": use typecheck, unit or e2e (or a comma list)');
  });
});
