/**
 * `bench run --max-cost USD --max-latency-increase PCT --max-cost-increase PCT` (issue #16 §4): the
 * spend cap and the gate limits are stored on the bench and written in `--json-output`; a bad value
 * is a usage error naming the flag.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { main } from "../main";
import { captureIo, GSM8K_BENCH_RUN } from "../testing";
import { withCliDatabase } from "../test-database";
import { seedDemoWorkspace } from "@/db/seed/demo";

const { dir } = withCliDatabase("benchwork-bench-budget-", seedDemoWorkspace);

const run = GSM8K_BENCH_RUN;

describe("bench run spend cap and gate limits", () => {
  it("stores them and writes them in the JSON (recorded candidates cost nothing: no trial is skipped)", async () => {
    const out = path.join(dir, "budget.json");
    await main([...run, "--max-cost", "0.5", "--max-latency-increase", "20", "--max-cost-increase", "30", "--json-output", out], captureIo());
    const r = JSON.parse(readFileSync(out, "utf8"));
    expect(r.schemaVersion).toBe(1);
    expect(r.budget).toEqual({
      spendCapUsd: 0.5,
      spendCapRaisedFromUsd: null,
      spentUsd: 0,
      skippedTrials: 0,
      maxLatencyIncreasePct: 20,
      maxCostIncreasePct: 30,
    });
    expect(r.candidates.map((c: { skippedForBudget: number }) => c.skippedForBudget)).toEqual([0, 0]);
  });

  it("names the flag of a bad value (exit 2)", async () => {
    const io = captureIo();
    expect(await main([...run, "--max-cost", "lots"], io)).toBe(2);
    expect(io.stderr.join("\n")).toMatch(/--max-cost: The spend cap \(USD\) must be a number/);
    const io2 = captureIo();
    expect(await main([...run, "--max-latency-increase", "-5"], io2)).toBe(2);
    expect(io2.stderr.join("\n")).toMatch(/--max-latency-increase: The p95 latency limit \(%\) must be a number from 0/);
  });
});

describe("bench run --rerun-max-cost", () => {
  it("names the flag of a bad value, and of one without a rerun to raise the cap for (exit 2)", async () => {
    const io = captureIo();
    expect(await main([...run, "--confirm", "--rerun-max-cost", "lots"], io)).toBe(2);
    expect(io.stderr.join("\n")).toMatch(/--rerun-max-cost: the spend cap for the reruns \(USD\) must be a positive number \(got "lots"\)/);
    const io2 = captureIo();
    expect(await main([...run, "--rerun-max-cost", "3"], io2)).toBe(2);
    expect(io2.stderr.join("\n")).toMatch(/--rerun-max-cost raises the spend cap for --confirm \/ --rerun-errors/);
  });
});
