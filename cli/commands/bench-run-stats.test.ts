/**
 * `bench run --json-output` carries the paired statistics (issue #16 §5): per candidate a
 * `comparisons` list and the case-level pass rate with its Wilson interval, and per broken check a
 * `regressionStatus`. Reference figures: see server/bench/comparisons.test.ts (GSM8K recorded,
 * b = 8, c = 38, +15.0 points, exact McNemar p = 9.24769992138863e-6).
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { main } from "../main";
import { captureIo, GSM8K_BENCH_RUN, gsm8kBenchRun } from "../testing";
import { withCliDatabase } from "../test-database";
import { migrateDatabase, openDatabase } from "@/db/client";
import { seedDemoWorkspace } from "@/db/seed/demo";

const { dir, file } = withCliDatabase("benchwork-bench-stats-", seedDemoWorkspace);

const run = GSM8K_BENCH_RUN;

describe("bench run --json-output statistics", () => {
  it("writes comparisons against the baseline and the last bench, Wilson intervals, pass@k with repeats and a status per regression", async () => {
    const out1 = path.join(dir, "first.json");
    expect(await main([...run, "--json-output", out1], captureIo())).toBe(1); // 6b-verification is blocked by its regressions
    const r1 = JSON.parse(readFileSync(out1, "utf8"));
    expect(r1.schemaVersion).toBe(1);
    const [base, cand] = r1.candidates;
    expect(base.comparisons).toEqual([]);
    expect(base.casePassRate).toMatchObject({ passed: 45, scored: 200, rate: 0.225 });
    expect(base.casePassRate.ci95[0]).toBeCloseTo(0.1726236971508913, 9); // scipy Wilson 45/200
    expect(base.passAtK).toBeNull();
    expect(cand.comparisons).toHaveLength(1);
    expect(cand.comparisons[0]).toMatchObject({
      against: "baseline",
      againstCandidate: "model-6b-finetuning",
      n: 200,
      regressions: 8,
      fixes: 38,
      test: "exact McNemar",
      verdict: "better",
    });
    expect(cand.comparisons[0].delta).toBeCloseTo(0.15, 12);
    expect(cand.comparisons[0].pValue).toBeCloseTo(9.24769992138863e-6, 15);
    expect(cand.comparisons[0].ci95).toHaveLength(2);
    expect(cand.comparisons[0].minDetectableEffect).toBeCloseTo(0.0944474416360213, 9); // Connor, n = 200, ψ = 46/200 (scipy brentq)
    expect(cand.regressions).toHaveLength(8);
    // Recorded answers against a recorded baseline on a code check: deterministic replays, confirmed without a p.
    expect(cand.regressions.map((x: { regressionStatus: string; regressionReason: string | null }) => [x.regressionStatus, x.regressionReason])).toEqual(
      Array(8).fill(["confirmed", "deterministic replay"]),
    );

    const out2 = path.join(dir, "second.json");
    await main([...run, "--repeats", "3", "--json-output", out2], captureIo());
    const r2 = JSON.parse(readFileSync(out2, "utf8"));
    const [base2, cand2] = r2.candidates;
    expect(cand2.comparisons.map((c: { against: string; againstCandidate: string; test: string }) => [c.against, c.againstCandidate, c.test])).toEqual([
      ["baseline", "model-6b-finetuning", "paired t"],
      ["last", "model-6b-finetuning", "paired t"],
    ]);
    expect(base2.comparisons).toMatchObject([{ against: "last", n: 200, delta: 0, verdict: "inconclusive" }]);
    expect(cand2.passAtK).toMatchObject({ "1": 0.375, "3": 0.375 });
    expect(cand2.passHatK).toMatchObject({ "3": 0.375 });
    // Three copies of each recorded answer: still deterministic replays (no Fisher p over copies).
    expect(
      cand2.regressions
        .filter((x: { against: string }) => x.against === "baseline")
        .map((x: { regressionStatus: string; regressionReason: string | null; regressionPValue: number | null }) => [
          x.regressionStatus,
          x.regressionReason,
          x.regressionPValue,
        ]),
    ).toEqual(Array(8).fill(["confirmed", "deterministic replay", null]));
  }, 120_000);
});

describe("bench run --markdown and --fail-on inconclusive", () => {
  // 175b-finetuning (32.5 %) against 6b-verification (37.5 %): −5.0 points, the "no detectable difference" example.
  const close = gsm8kBenchRun("model-6b-verification", "model-175b-finetuning");

  it("writes a pull-request comment with the evidence sentence, the table with intervals and the blocking regressions", async () => {
    const md = path.join(dir, "comment.md");
    const io = captureIo();
    // The baseline ranks first but breaks checks the last bench's model-6b-finetuning passed (the test above): blocked, exit 1.
    expect(await main([...close, "--markdown", md], io)).toBe(1);
    const text = readFileSync(md, "utf8");
    expect(text).toMatch(/^### Benchwork bench #\d+ \(finished\)\n/);
    expect(text).toContain("**No detectable difference between model-175b-finetuning and model-6b-verification (−5.0 points, 95 % CI −11.9 to +1.9");
    expect(text).toContain("| model-6b-verification (baseline) | 37.5 % (95 % CI 31.1–44.4) 75/200 trials |");
    expect(text).toMatch(
      /\| model-175b-finetuning \| 32\.5 % \(95 % CI 26\.4–39\.3\) 65\/200 trials \| baseline model-6b-verification \| −5\.0 \(−11\.9 to \+1\.9\) \| p = [\d.]+ \(exact McNemar, 200 paired cases\) \| inconclusive \| (\d+) \(\1 confirmed by deterministic replay\) \|/,
    );
    expect(text).toContain("<summary>Blocking regressions (");
    expect(io.stdout.join("\n")).toContain("No detectable difference between model-175b-finetuning and model-6b-verification");
  }, 120_000);

  it("exits 1 when the primary comparison is inconclusive and says why; 2 for a --fail-on it does not know", async () => {
    const io = captureIo();
    expect(await main([...close, "--fail-on", "inconclusive"], io)).toBe(1);
    expect(io.stderr.join("\n")).toContain("--fail-on inconclusive: model-175b-finetuning vs model-6b-verification is inconclusive");
    const bad = captureIo();
    expect(await main([...close, "--fail-on", "better"], bad)).toBe(2);
    expect(bad.stderr.join("\n")).toContain('--fail-on takes worse and/or inconclusive, comma-separated (got "better")');
  }, 120_000);

  it("refuses a --markdown path it cannot write before anything runs", async () => {
    const io = captureIo();
    expect(await main([...close, "--markdown", dir], io)).toBe(2);
    expect(io.stderr.join("\n")).toContain(`--markdown ${dir}: is a directory`);
  });
});

describe("bench run --fail-on inconclusive with nothing to compare", () => {
  it("exits 1 for a sole candidate on a prompt with no earlier bench, and says nothing was compared", async () => {
    const fresh = path.join(dir, "fresh.db");
    const db = openDatabase(fresh);
    migrateDatabase(db);
    await seedDemoWorkspace(db);
    db.$client.close();
    process.env.BENCHWORK_DB = fresh;
    try {
      const sole = gsm8kBenchRun("model-6b-finetuning");
      const io = captureIo();
      expect(await main([...sole, "--fail-on", "inconclusive"], io)).toBe(1);
      expect(io.stderr.join("\n")).toContain("--fail-on inconclusive: nothing was compared (one candidate and no earlier bench)");
    } finally {
      process.env.BENCHWORK_DB = file;
    }
  }, 120_000);
});
