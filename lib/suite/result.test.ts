import { describe, expect, it } from "vitest";
import { caseListToJson, casePassed, skippedResult, summarize, suiteResultToJson } from "./result";
import type { CaseResult, ReleaseCase } from "./types";

function result(more: Partial<CaseResult> = {}): CaseResult {
  const r: CaseResult = { ...skippedResult({ id: "c", labels: ["t"] }), skipped: false, sessionId: "s-1", durationSeconds: 0.1234, ...more };
  return { ...r, passed: more.passed ?? casePassed(r) };
}

describe("casePassed", () => {
  it("is true only when there is no error and every configured check passed", () => {
    expect(casePassed(result({ evaluatorPassed: true }))).toBe(true);
    expect(casePassed(result({ evaluatorPassed: true, judgePassed: true, reliabilityPassed: true }))).toBe(true);
    expect(casePassed(result({ evaluatorPassed: true, judgePassed: false }))).toBe(false);
    expect(casePassed(result({ evaluatorPassed: true, reliabilityPassed: false }))).toBe(false);
    expect(casePassed(result({ evaluatorPassed: true, error: "hook: onCaseEnd threw: x" }))).toBe(false);
  });

  it("is false when no check ran (no verdicts, skipped, timed out)", () => {
    expect(casePassed(result({}))).toBe(false);
    expect(casePassed(result({ evaluatorPassed: true, skipped: true }))).toBe(false);
    expect(casePassed(result({ evaluatorPassed: true, timedOut: true }))).toBe(false);
  });
});

describe("summarize", () => {
  it("counts every result and is PASS only when all passed", () => {
    const s = summarize([result({ evaluatorPassed: true }), result({ evaluatorPassed: false }), skippedResult({ id: "x", labels: [] })]);
    expect([s.total, s.passed, s.failed, s.status]).toEqual([3, 1, 2, "FAIL"]);
    expect(summarize([result({ evaluatorPassed: true })]).status).toBe("PASS");
  });

  it("is FAIL for an empty selection", () => {
    expect(summarize([])).toEqual({ results: [], total: 0, passed: 0, failed: 0, status: "FAIL" });
  });
});

describe("the JSON contract", () => {
  it("has schemaVersion, release, a summary block and one entry per case (skipped included) with exactly these fields", () => {
    const pass = result({
      name: "a",
      evaluatorPassed: true,
      evaluatorScore: 1,
      evaluatorMessage: "ok",
      evaluatorDetails: { usedExpectedTool: true },
      output: "30 days",
      toolsCalled: ["lookup_policy"],
    });
    const fail = result({ name: "b", judgePassed: false, judgeReason: "Judge: fail — rude", judgeScore: 3, reliabilityPassed: true, timedOut: false });
    const timed = result({ name: "c", timedOut: true, error: "run: timed out after 1 s" });
    const skip = skippedResult({ id: "d", labels: ["x"] });
    const suite = summarize([pass, fail, timed, skip]);
    const cases = [{ id: "a", source: { module: "evals/a.ts", file: "evals/a.csv", row: 2, line: 3, index: 1 } }] as Pick<ReleaseCase, "id" | "source">[];
    const json = suiteResultToJson(suite, { release: { title: "T", version: "1", contentHash: "sha256:x" }, cases, durationSeconds: 1.23456 });
    expect(Object.keys(json)).toEqual(["schemaVersion", "release", "summary", "results"]);
    expect(json.schemaVersion).toBe(1);
    expect(json.release).toEqual({ title: "T", version: "1", contentHash: "sha256:x" });
    expect(json.summary).toEqual({ status: "FAIL", total: 4, passed: 1, failed: 3, skipped: 1, timedOut: 1, errored: 1, durationSeconds: 1.235 });
    expect(json.results.map((r) => r.name)).toEqual(["a", "b", "c", "d"]);
    expect(Object.keys(json.results[0])).toEqual([
      "name",
      "tags",
      "sessionId",
      "durationSeconds",
      "judgePassed",
      "judgeReason",
      "judgeScore",
      "reliabilityPassed",
      "evaluatorPassed",
      "evaluatorScore",
      "evaluatorMessage",
      "evaluatorDetails",
      "output",
      "toolsCalled",
      "timedOut",
      "skipped",
      "error",
      "passed",
      "source",
    ]);
    expect(json.results[0]).toMatchObject({
      tags: ["t"],
      sessionId: "s-1",
      durationSeconds: 0.123,
      evaluatorPassed: true,
      evaluatorDetails: { usedExpectedTool: true },
      output: "30 days",
      toolsCalled: ["lookup_policy"],
      passed: true,
      source: { file: "evals/a.csv", row: 2 },
    });
    expect(json.results[1]).toMatchObject({
      judgePassed: false,
      judgeReason: "Judge: fail — rude",
      judgeScore: 3,
      reliabilityPassed: true,
      evaluatorPassed: null,
      passed: false,
      source: null,
    });
    expect(json.results[3]).toEqual({
      name: "d",
      tags: ["x"],
      sessionId: "",
      durationSeconds: 0,
      judgePassed: null,
      judgeReason: null,
      judgeScore: null,
      reliabilityPassed: null,
      evaluatorPassed: null,
      evaluatorScore: null,
      evaluatorMessage: null,
      evaluatorDetails: null,
      output: null,
      toolsCalled: [],
      timedOut: false,
      skipped: true,
      error: null,
      passed: false,
      source: null,
    });
    // round-trips through JSON unchanged
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  it("lists cases for --list", () => {
    const c = {
      id: "unopened",
      evalId: "refunds",
      labels: ["policy"],
      tools: ["lookup_policy"],
      source: { module: "m.ts", file: "m.csv", row: 1, line: 2, index: 0 },
    } as ReleaseCase;
    expect(caseListToJson([c], null)).toEqual({
      schemaVersion: 1,
      release: null,
      total: 1,
      cases: [
        { name: "unopened", eval: "refunds", tags: ["policy"], tools: ["lookup_policy"], source: { module: "m.ts", file: "m.csv", row: 1, line: 2, index: 0 } },
      ],
    });
  });
});
