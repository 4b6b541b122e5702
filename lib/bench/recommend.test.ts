import { describe, expect, it } from "vitest";
import { aggregateCandidates, caseCell, checkOutcomes, type TrialFacts } from "./aggregate";
import { findFixes, findRegressions, mergeRegressions, recommend, soleBaseline, type Regression } from "./recommend";
import type { CheckRecord } from "./types";

const check = (key: string, verdict: CheckRecord["verdict"], priority?: "primary" | "secondary"): CheckRecord => ({
  key,
  kind: key.startsWith("c") ? "judge" : "exact",
  label: key,
  verdict,
  score: verdict === "passed" ? 1 : 0,
  message: "",
  ...(priority ? { priority } : {}),
});

function trial(candidateId: number, caseNo: number, checks: CheckRecord[] | null, o: Partial<TrialFacts> = {}): TrialFacts {
  return {
    candidateId,
    caseRevisionId: caseNo,
    caseKey: `case-${caseNo}`,
    repeat: 1,
    status: "done",
    checks,
    inputTokens: 10,
    outputTokens: 5,
    costUsd: null,
    latencyMs: 100,
    ...o,
  };
}

describe("aggregation", () => {
  it("pass rate counts scored checks only; unscored and errors are kept apart", () => {
    const [s] = aggregateCandidates(
      [1],
      [
        trial(1, 1, [check("e0", "passed"), check("c1", "unscored")]),
        trial(1, 2, [check("e0", "failed"), check("c1", "error")]),
        trial(1, 3, null, { status: "error", latencyMs: null }),
        trial(1, 4, null, { status: "skipped" }),
      ],
    );
    expect(s.checks).toEqual({ scored: 2, passed: 1, failed: 1, unscored: 1, error: 1 });
    expect(s.passRate).toEqual({ passed: 1, scored: 2, rate: 0.5 });
    expect(s.trials).toEqual({ total: 4, done: 2, error: 1, skipped: 1, pending: 0 });
    expect(s.byCheck.e0).toMatchObject({ passed: 1, failed: 1 });
    expect(s.tokens).toEqual({ input: 40, output: 20 });
    expect(s.costUsd).toBeNull();
    expect(s.latencyMs).toEqual({ p50: 100, p95: 100 });
  });

  it("a check row summed over cases whose evaluator summaries differ is not labelled with one case's summary", () => {
    const tools = (caseNo: number, label: string, verdict: CheckRecord["verdict"]) =>
      trial(1, caseNo, [{ key: "e0:expected_tool_calls", kind: "expected_tool_calls", label, verdict, score: 0, message: "" }]);
    const [named] = aggregateCandidates(
      [1],
      [
        tools(1, "Uses the expected tools — Calls lookup_policy", "passed"),
        tools(2, "Uses the expected tools — Calls get_order, lookup_policy", "failed"),
        tools(3, "Uses the expected tools — Calls (no tools) and nothing else", "passed"),
      ],
    );
    expect(named.byCheck["e0:expected_tool_calls"]).toMatchObject({ label: "Uses the expected tools (differs by case)", passed: 2, failed: 1 });
    const [unnamed] = aggregateCandidates([1], [tools(1, "Calls lookup_policy", "passed"), tools(2, "Calls get_order", "passed")]);
    expect(unnamed.byCheck["e0:expected_tool_calls"].label).toBe("Expected tools fire (differs by case)");
    // Cases that name the evaluator differently ("Calls no tool" on a greeting): the kind's name.
    const [mixedNames] = aggregateCandidates(
      [1],
      [tools(1, "Uses the expected tools — Calls lookup_policy", "passed"), tools(2, "Calls no tool — Calls (no tools) and nothing else", "passed")],
    );
    expect(mixedNames.byCheck["e0:expected_tool_calls"].label).toBe("Expected tools fire (differs by case)");
    const [same] = aggregateCandidates([1], [tools(1, "Calls lookup_policy", "passed"), tools(2, "Calls lookup_policy", "failed")]);
    expect(same.byCheck["e0:expected_tool_calls"].label).toBe("Calls lookup_policy");
  });

  it("counts the judge's tokens and cost apart from the candidate's", () => {
    const judged = (verdict: CheckRecord["verdict"], costUsd: number | null): CheckRecord => ({
      ...check("c1", verdict),
      usage: { inputTokens: 300, outputTokens: 40, costUsd },
    });
    const [s] = aggregateCandidates(
      [1],
      [trial(1, 1, [check("e0", "passed"), judged("passed", 0.003)], { costUsd: 0.001 }), trial(1, 2, [judged("error", 0.002)], { costUsd: 0.001 })],
    );
    expect(s.tokens).toEqual({ input: 20, output: 10 });
    expect(s.costUsd).toBeCloseTo(0.002, 10);
    expect(s.judge!.checks).toBe(2);
    expect(s.judge!.tokens).toEqual({ input: 600, output: 80 });
    expect(s.judge!.costUsd).toBeCloseTo(0.005, 10);
    const [unpriced] = aggregateCandidates([1], [trial(1, 1, [judged("passed", null)])]);
    expect(unpriced.judge).toEqual({ checks: 1, tokens: { input: 300, output: 40 }, costUsd: null });
    const [none] = aggregateCandidates([1], [trial(1, 1, [check("e0", "passed")])]);
    expect(none.judge).toBeUndefined();
  });

  it("a case's cell shows how many of its repeats passed", () => {
    const cell = caseCell([
      trial(1, 1, [check("e0", "passed")], { repeat: 1 }),
      trial(1, 1, [check("e0", "failed")], { repeat: 2 }),
      trial(1, 1, [check("e0", "passed")], { repeat: 3 }),
    ]);
    expect(cell).toEqual({ verdict: "mixed", passedTrials: 2, scoredTrials: 3, errorTrials: 0, trials: 3, failedChecks: 1 });
    expect(caseCell([trial(1, 1, null, { status: "error" })]).verdict).toBe("error");
    expect(caseCell([trial(1, 1, [check("c1", "unscored")])]).verdict).toBe("unscored");
  });
});

describe("errors beside verdicts", () => {
  const judged = (v: CheckRecord["verdict"]) => [check("e0", "passed"), check("c1", v)];
  it("a trial whose judge check errored is neither passed nor failed (it read 'passed')", () => {
    expect(caseCell([trial(1, 1, judged("error"))])).toMatchObject({ verdict: "error", passedTrials: 0, scoredTrials: 0, errorTrials: 1 });
    // A failed check still makes the trial failed; its errored check is counted beside it.
    expect(caseCell([trial(1, 1, [check("e0", "failed"), check("c1", "error")])])).toMatchObject({ verdict: "failed", errorTrials: 1 });
  });

  it("2 passes and 3 errors over 5 repeats: passed 2 of 2 with 3 errors (it read 'passed 2/2')", () => {
    const repeats = [1, 2, 3, 4, 5].map((r) => trial(1, 1, judged(r <= 2 ? "passed" : "error"), { repeat: r }));
    expect(caseCell(repeats)).toEqual({ verdict: "passed", passedTrials: 2, scoredTrials: 2, errorTrials: 3, trials: 5, failedChecks: 0 });
    const [s] = aggregateCandidates([1], [...repeats, trial(1, 2, null, { status: "error" }), trial(1, 3, [check("e0", "failed")])]);
    expect(s.trialPassRate).toEqual({ passed: 2, scored: 3, rate: 2 / 3 });
    expect(s.trialsWithErrors).toBe(4);
  });
});

describe("regressions and recommendation", () => {
  // baseline passes case 1 and 2; candidate B improves cases 3-6 but breaks case 2 (a secondary criterion);
  // candidate C improves less and breaks nothing.
  const trials: TrialFacts[] = [
    trial(1, 1, [check("e0", "passed")]),
    trial(1, 2, [check("c7", "passed", "secondary")]),
    ...[3, 4, 5, 6].map((n) => trial(1, n, [check("e0", "failed")])),
    trial(2, 1, [check("e0", "passed")]),
    trial(2, 2, [check("c7", "failed", "secondary")]),
    ...[3, 4, 5, 6].map((n) => trial(2, n, [check("e0", "passed")])),
    trial(3, 1, [check("e0", "passed")]),
    trial(3, 2, [check("c7", "passed", "secondary")]),
    trial(3, 3, [check("e0", "passed")]),
    ...[4, 5, 6].map((n) => trial(3, n, [check("e0", "failed")])),
  ];
  const stats = aggregateCandidates([1, 2, 3], trials);
  const base = checkOutcomes(trials, 1);

  it("finds a broken passing check of any priority", () => {
    const r = findRegressions(base, checkOutcomes(trials, 2), "baseline");
    expect(r).toEqual([{ caseKey: "case-2", caseRevisionId: 2, key: "c7", label: "c7", priority: "secondary", against: "baseline", outcome: "failed" }]);
    expect(findRegressions(base, checkOutcomes(trials, 3), "baseline")).toEqual([]);
  });

  it("lists the checks a candidate fixed beside the ones it broke", () => {
    expect(findFixes(base, checkOutcomes(trials, 2), "baseline").map((f) => [f.caseKey, f.key, f.against])).toEqual([
      ["case-3", "e0", "baseline"],
      ["case-4", "e0", "baseline"],
      ["case-5", "e0", "baseline"],
      ["case-6", "e0", "baseline"],
    ]);
    expect(findFixes(base, checkOutcomes(trials, 3), "baseline").map((f) => f.caseKey)).toEqual(["case-3"]);
    const fixes = new Map([[3, findFixes(base, checkOutcomes(trials, 3), "baseline")]]);
    const rec = recommend(
      [
        { id: 1, label: "baseline", stats: stats[0] },
        { id: 3, label: "C", stats: stats[2] },
      ],
      1,
      new Map(),
      { fixes },
    );
    expect(rec.candidates.find((c) => c.label === "C")!.fixes).toEqual([{ caseKey: "case-3", caseRevisionId: 3, key: "e0", label: "e0", against: "baseline" }]);
  });

  it("does not count a case whose baseline trials disagree as a fix: it is flaky on the baseline (banking77-004: baseline 2/3, candidate 3/3)", () => {
    const repeats: TrialFacts[] = [
      ...[1, 2, 3].map((r) => trial(1, 4, [check("e0", r === 2 ? "failed" : "passed")], { repeat: r })),
      ...[1, 2, 3].map((r) => trial(1, 6, [check("e0", "failed")], { repeat: r })),
      ...[1, 2, 3].map((r) => trial(2, 4, [check("e0", "passed")], { repeat: r })),
      ...[1, 2, 3].map((r) => trial(2, 6, [check("e0", "passed")], { repeat: r })),
    ];
    expect(findFixes(checkOutcomes(repeats, 1), checkOutcomes(repeats, 2), "baseline").map((f) => f.caseKey)).toEqual(["case-6"]);
  });

  it("does not recommend a candidate with a higher average that breaks a passing check", () => {
    expect(stats.map((s) => s.passRate.rate)).toEqual([2 / 6, 5 / 6, 3 / 6]);
    const blockers = new Map<number, Regression[]>([
      [2, findRegressions(base, checkOutcomes(trials, 2), "baseline")],
      [3, findRegressions(base, checkOutcomes(trials, 3), "baseline")],
    ]);
    const rec = recommend(
      [
        { id: 1, label: "baseline", stats: stats[0] },
        { id: 2, label: "B", stats: stats[1] },
        { id: 3, label: "C", stats: stats[2] },
      ],
      1,
      blockers,
    );
    expect(rec.recommendedCandidateId).toBe(3);
    expect(rec.candidates.map((c) => [c.label, c.rank, c.recommended, c.blockers.length])).toEqual([
      ["B", 1, false, 1],
      ["C", 2, true, 0],
      ["baseline", 3, false, 0],
    ]);
    expect(rec.headline).toBe("Recommended: C (50.0% of 6 scored checks). B scores higher but breaks 1 previously passing check.");
    expect(rec.candidates[1].tradeoffs).toContain("pass rate over scored checks +16.7 points vs baseline (the evidence's Δ is over paired cases)");
  });

  it("writes a negative difference with one minus sign (U+2212), never a hyphen", () => {
    // The baseline is now C (3 of 6); the old baseline has 2 of 6: 33.3 − 50.0 = −16.7 points.
    const rec = recommend(
      [
        { id: 1, label: "old", stats: stats[0] },
        { id: 3, label: "C", stats: stats[2] },
      ],
      3,
      new Map(),
    );
    const line = rec.candidates.find((c) => c.label === "old")!.tradeoffs.join(" · ");
    expect(line).toContain("pass rate over scored checks \u221216.7 points vs baseline");
    expect(line).not.toMatch(/-\d/);
  });

  it("keeps the baseline when every better candidate is blocked, and recommends nothing when nothing was scored", () => {
    const blockers = new Map<number, Regression[]>([[2, findRegressions(base, checkOutcomes(trials, 2), "baseline")]]);
    const rec = recommend(
      [
        { id: 1, label: "baseline", stats: stats[0] },
        { id: 2, label: "B", stats: stats[1] },
      ],
      1,
      blockers,
    );
    expect(rec.recommendedCandidateId).toBe(1);
    expect(rec.headline).toMatch(/^Keep the baseline baseline .*B scores higher but breaks 1 previously passing check\.$/);
    const empty = aggregateCandidates([9], [trial(9, 1, [check("c1", "unscored")])]);
    expect(recommend([{ id: 9, label: "X", stats: empty[0] }], null, new Map()).recommendedCandidateId).toBeNull();
  });
});

describe("ranking ties", () => {
  // Two candidates with the same pass rate: found by the new-team pass, where "Recommended: TB base3"
  // came from a p50 latency 4 ms lower than the baseline's (noise), asking a team to switch for nothing.
  const twin = (latencyMs: number, costUsd: number | null) =>
    aggregateCandidates(
      [1],
      [1, 2, 3, 4].map((n) => trial(1, n, [check("e0", n < 4 ? "passed" : "failed")], { latencyMs, costUsd })),
    )[0];

  it("keeps the baseline when the other differs only by noise in latency or cost (under the 10 % / 5 % the trade-offs call worth knowing)", () => {
    const rec = recommend(
      [
        { id: 1, label: "base", stats: twin(1000, 0.1) },
        { id: 2, label: "other", stats: twin(996, 0.098) },
      ],
      1,
      new Map(),
    );
    expect(rec.recommendedCandidateId).toBe(1);
    expect(rec.candidates.map((c) => [c.label, c.rank])).toEqual([
      ["base", 1],
      ["other", 2],
    ]);
  });

  it("still prefers a clearly cheaper or faster candidate at the same pass rate", () => {
    const cheaper = recommend(
      [
        { id: 1, label: "base", stats: twin(1000, 0.1) },
        { id: 2, label: "other", stats: twin(1000, 0.05) },
      ],
      1,
      new Map(),
    );
    expect(cheaper.recommendedCandidateId).toBe(2);
    const faster = recommend(
      [
        { id: 1, label: "base", stats: twin(1000, null) },
        { id: 2, label: "other", stats: twin(500, null) },
      ],
      1,
      new Map(),
    );
    expect(faster.recommendedCandidateId).toBe(2);
  });
});

describe("recommendation context", () => {
  it("a single candidate that is its own baseline: says there was nothing to compare it with", () => {
    const st = aggregateCandidates([1], [trial(1, 1, [check("e0", "passed")]), trial(1, 2, [check("e0", "failed")]), trial(1, 3, [check("e0", "failed")])]);
    const rec = recommend([{ id: 1, label: "solo", stats: st[0] }], 1, new Map());
    // Still the pick (nothing it could break), but not presented as a verdict over alternatives.
    expect(rec.recommendedCandidateId).toBe(1);
    expect(soleBaseline(rec.candidates)).toBe(true);
    expect(soleBaseline([{ isBaseline: false }])).toBe(false); // compared with the last bench
    expect(soleBaseline([{ isBaseline: true }, { isBaseline: false }])).toBe(false);
    expect(rec.headline).toBe(
      "Only one candidate, solo (33.3% of 3 scored checks): there was nothing to compare it with, so no regression could be checked. Add a second candidate, or choose the last bench as the baseline, for a recommendation.",
    );
  });

  it("recommends nothing when nothing passed, and says so (it headlined 'Recommended: … 0.0 %')", () => {
    const t: TrialFacts[] = [
      trial(1, 1, [check("e0", "failed")]),
      trial(1, 2, [check("e0", "failed"), check("c1", "unscored")]),
      trial(2, 1, [check("e0", "failed")]),
      trial(2, 2, [check("e0", "failed")]),
      trial(3, 1, null, { status: "error" }),
    ];
    const st = aggregateCandidates([1, 2, 3], t);
    const three = recommend(
      [
        { id: 1, label: "a", stats: st[0] },
        { id: 2, label: "b", stats: st[1] },
        { id: 3, label: "down", stats: st[2] },
      ],
      1,
      new Map(),
    );
    expect(three.recommendedCandidateId).toBeNull();
    expect(three.candidates.every((c) => !c.recommended)).toBe(true);
    expect(three.headline).toBe("Nothing passed: every scored check failed (a: 0 of 2, b: 0 of 2). No candidate is recommended.");
    expect(three.headline).not.toMatch(/Recommended|0\.0%/);

    const one = recommend([{ id: 1, label: "solo", stats: st[0] }], 1, new Map());
    expect(one.recommendedCandidateId).toBeNull();
    expect(one.candidates[0].recommended).toBe(false);
    expect(one.headline).toBe("Nothing passed: every scored check failed (solo: 0 of 2). No candidate is recommended.");
    // Against the last bench only (no baseline), the same.
    expect(recommend([{ id: 2, label: "b", stats: st[1] }], null, new Map()).headline).toBe(
      "Nothing passed: every scored check failed (b: 0 of 2). No candidate is recommended.",
    );
  });

  it("never recommends a candidate that passed nothing, even when every candidate that passed something is blocked", () => {
    const t: TrialFacts[] = [trial(1, 1, [check("e0", "failed")]), trial(2, 1, [check("e0", "passed")]), trial(2, 2, [check("e0", "failed")])];
    const st = aggregateCandidates([1, 2], t);
    const blocked: Regression = { caseKey: "case-2", caseRevisionId: 2, key: "e0", label: "e0", against: "last bench", outcome: "failed" };
    const rec = recommend(
      [
        { id: 1, label: "zero", stats: st[0] },
        { id: 2, label: "half", stats: st[1] },
      ],
      1,
      new Map([[2, [blocked]]]),
    );
    expect(rec.recommendedCandidateId).toBeNull();
    expect(rec.candidates.map((c) => [c.label, c.recommended])).toEqual([
      ["half", false],
      ["zero", false],
    ]);
    expect(rec.headline).toBe(
      "No candidate is recommended: every candidate that passed a check breaks a previously passing check (half: 1); the others passed none.",
    );
  });

  it("says when the baseline had nothing scored, and when the bench was cancelled", () => {
    const t: TrialFacts[] = [
      trial(1, 1, null, { status: "error" }),
      trial(1, 2, null, { status: "error" }),
      trial(2, 1, [check("e0", "passed")]),
      trial(2, 2, [check("e0", "failed")]),
    ];
    const st = aggregateCandidates([1, 2], t);
    const rec = recommend(
      [
        { id: 1, label: "dead", stats: st[0] },
        { id: 2, label: "alive", stats: st[1] },
      ],
      1,
      new Map(),
      { partial: { finished: 4, total: 10 } },
    );
    // Issue #16: a partial bench recommends nothing (the tester's capped bench recommended one "with no regression").
    expect(rec.recommendedCandidateId).toBeNull();
    expect(rec.candidates.some((c) => c.recommended)).toBe(false);
    expect(rec.partial).toEqual({ finished: 4, total: 10 });
    expect(rec.headline).toBe(
      "Partial bench, cancelled after 4 of 10 trials. No candidate is recommended: the cases it did not run could hide a regression. On the cases that ran, alive ranks first (50.0% of 2 scored checks). The baseline dead has no scored check (2 of 2 trials errored), so regressions against it could not be checked.",
    );
  });

  it("a bench the spend cap cut short recommends nothing, says which comparisons cover how many cases, and claims no 'no regression' (issue #16)", () => {
    const t: TrialFacts[] = [
      trial(1, 1, [check("e0", "passed")]),
      trial(1, 2, [check("e0", "failed")]),
      trial(2, 1, [check("e0", "passed")]),
      trial(2, 2, [check("e0", "passed")]),
    ];
    const st = aggregateCandidates([1, 2], t);
    const partial = {
      finished: 4,
      total: 40,
      budgetSkipped: 36,
      cases: 20,
      coverage: [
        { label: "cand", against: "baseline" as const, n: 2 },
        { label: "cand", against: "last" as const, againstBenchId: 8, n: 2 },
        { label: "base", against: "last" as const, againstBenchId: 8, n: 2 },
      ],
    };
    const rec = recommend(
      [
        { id: 1, label: "base", stats: st[0] },
        { id: 2, label: "cand", stats: st[1] },
      ],
      1,
      new Map(),
      { partial, lastBench: { benchId: 8, candidateLabel: "base" } },
    );
    expect(rec.recommendedCandidateId).toBeNull();
    expect(rec.candidates.map((c) => [c.label, c.recommended])).toEqual([
      ["cand", false],
      ["base", false],
    ]);
    expect(rec.headline).toBe(
      "Partial bench, the spend cap stopped it after 4 of 40 trials (36 skipped as budget). No candidate is recommended: the cases it did not run could hide a regression. Its comparisons cover only the cases both sides scored, of 20: cand vs the baseline 2, vs the last bench (#8) 2; base vs the last bench (#8) 2. On the cases that ran, cand ranks first (100.0% of 2 scored checks).",
    );
    expect(rec.headline).not.toMatch(/no regression/);
    // One that breaks a check still says so.
    const blocked = recommend(
      [
        { id: 1, label: "base", stats: st[0] },
        { id: 2, label: "cand", stats: st[1] },
      ],
      1,
      new Map([[2, [{ caseKey: "case-1", caseRevisionId: 1, key: "e0", label: "e0", against: "baseline" as const, outcome: "failed" as const }]]]),
      { partial },
    );
    expect(blocked.recommendedCandidateId).toBeNull();
    expect(blocked.headline).toMatch(
      /On the cases that ran, base ranks first \(50\.0% of 2 scored checks\); cand scores higher but breaks 1 previously passing check\.$/,
    );
  });

  it("names what 'no regression' was checked against, and says so when nothing was (it headlined 'with no regression' with no reference)", () => {
    const t: TrialFacts[] = [trial(1, 1, [check("e0", "passed")]), trial(2, 1, [check("e0", "failed")])];
    const st = aggregateCandidates([1, 2], t);
    const cands = [
      { id: 1, label: "a", stats: st[0] },
      { id: 2, label: "b", stats: st[1] },
    ];
    expect(recommend(cands, null, new Map()).headline).toBe(
      "Recommended: a (100.0% of 1 scored checks), on pass rate alone: no regression check was possible (no baseline candidate and no earlier finished bench of this prompt to compare with).",
    );
    const lastBench = { benchId: 7, candidateLabel: "gpt-4o · agent r2" };
    expect(recommend(cands, null, new Map(), { lastBench }).headline).toBe(
      "Recommended: a (100.0% of 1 scored checks), with no regression against the last bench (#7, gpt-4o · agent r2).",
    );
    expect(recommend([cands[0]], null, new Map(), { lastBench }).headline).toBe(
      "Recommended: a (100.0% of 1 scored checks); it breaks no check that passed in the last bench (#7, gpt-4o · agent r2).",
    );
    expect(recommend([cands[0]], null, new Map()).headline).toMatch(
      /^Recommended: a \(100\.0% of 1 scored checks\), on pass rate alone: no regression check was possible/,
    );
    // A lone baseline compared with the last bench was compared with something.
    expect(recommend([cands[0]], 1, new Map(), { lastBench }).headline).toBe(
      "Only one candidate, a (100.0% of 1 scored checks): it breaks no check that passed in the last bench (#7, gpt-4o · agent r2).",
    );
  });

  it("lists errored trials as a trade-off, never as failures", () => {
    const t: TrialFacts[] = [trial(1, 1, [check("e0", "passed")]), trial(2, 1, [check("e0", "passed")]), trial(2, 2, null, { status: "error" })];
    const st = aggregateCandidates([1, 2], t);
    const rec = recommend(
      [
        { id: 1, label: "a", stats: st[0] },
        { id: 2, label: "b", stats: st[1] },
      ],
      1,
      new Map(),
    );
    expect(rec.candidates.find((c) => c.label === "b")!.tradeoffs).toContain("1 of 2 trials errored (not counted as failures)");
  });

  it("a candidate whose every trial errored has no token, cost or latency trade-off (it said -100% tokens)", () => {
    const t: TrialFacts[] = [
      trial(1, 1, [check("e0", "passed")]),
      trial(2, 1, null, { status: "error", inputTokens: null, outputTokens: null, latencyMs: null }),
      trial(2, 2, null, { status: "error", inputTokens: null, outputTokens: null, latencyMs: null }),
    ];
    const st = aggregateCandidates([1, 2], t);
    const rec = recommend(
      [
        { id: 1, label: "a", stats: st[0] },
        { id: 2, label: "down", stats: st[1] },
      ],
      1,
      new Map(),
    );
    expect(rec.candidates.find((c) => c.label === "down")!.tradeoffs).toEqual(["2 of 2 trials errored (not counted as failures)"]);
  });
});

describe("regressions against the baseline and the last bench", () => {
  it("count a check that regressed against both once (it was counted twice from the third bench on)", () => {
    const r = (caseRevisionId: number, key: string, against: Regression["against"]): Regression => ({
      caseKey: `case-${caseRevisionId}`,
      caseRevisionId,
      key,
      label: key,
      against,
      outcome: "failed",
    });
    const merged = mergeRegressions(
      [r(1, "e0", "baseline"), r(2, "e0", "baseline")],
      [r(1, "e0", "last bench"), r(3, "e0", "last bench"), r(1, "c1", "last bench")],
    );
    expect(merged.map((x) => [x.caseRevisionId, x.key, x.against])).toEqual([
      [1, "e0", "baseline"],
      [2, "e0", "baseline"],
      [3, "e0", "last bench"],
      [1, "c1", "last bench"],
    ]);
  });
});
