/**
 * How `npm test` counts each suite in its closing line `tests: N passed, M failed`: the type-check
 * (`tsc --noEmit`) counts as one passed test when clean and one failed test per type error.
 */
import { describe, expect, it } from "vitest";
import { eslintResult, playwrightResult, prettierResult, suitesToRun, typecheckResult, vitestResult } from "./test-results.mjs";

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
  it("runs the type-check, the linters, the unit and the e2e tests by default; one or a comma list on request", () => {
    expect(suitesToRun(undefined)).toEqual(["typecheck", "lint", "unit", "e2e"]);
    expect(suitesToRun("unit")).toEqual(["unit"]);
    expect(suitesToRun("typecheck,unit")).toEqual(["typecheck", "unit"]);
  });

  it("names an unknown suite", () => {
    expect(() => suitesToRun("units")).toThrow('unknown test suite "units": use typecheck, lint, unit or e2e (or a comma list)');
  });
});

describe("eslintResult and prettierResult", () => {
  it("count a clean ESLint run as one passed test and each problem as a failed one", () => {
    expect(eslintResult(0, [{ filePath: "/a.ts", messages: [] }])).toEqual({ passed: 1, failed: 0, notes: [] });
    const report = [
      { filePath: "/p/a.ts", messages: [{ line: 3, ruleId: "no-control-regex", message: "x" }] },
      {
        filePath: "/p/b.tsx",
        messages: [
          { line: 1, ruleId: "react-hooks/purity", message: "y" },
          { line: 9, ruleId: null, message: "z" },
        ],
      },
    ];
    expect(eslintResult(1, report)).toEqual({ passed: 0, failed: 3, notes: ["eslint: 3 problems (npm run lint)"] });
    expect(eslintResult(2, null)).toEqual({ passed: 0, failed: 1, notes: ["eslint exited with 2 without a report"] });
  });

  it("count a clean Prettier check as one passed test and each unformatted file as a failed one", () => {
    expect(prettierResult(0, "Checking formatting...\nAll matched files use Prettier code style!\n")).toEqual({ passed: 1, failed: 0, notes: [] });
    const out = "Checking formatting...\n[warn] lib/a.ts\n[warn] app/b.tsx\n[warn] Code style issues found in 2 files. Run Prettier with --write to fix.\n";
    expect(prettierResult(1, out)).toEqual({ passed: 0, failed: 2, notes: ["prettier: 2 files not formatted (npm run format): lib/a.ts, app/b.tsx"] });
    expect(prettierResult(2, "[error] No parser could be inferred")).toEqual({
      passed: 0,
      failed: 1,
      notes: ["prettier --check exited with 2 without naming a file"],
    });
  });
});
