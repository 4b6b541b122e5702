/**
 * `bench run --confirm` and `--rerun-errors` (issue #16 §3): after the main run, the suspected
 * regressions' cases are rerun inside the same bench and the JSON's `regressionStatus` shows the
 * outcome. GSM8K's recorded answers never change, so every rerun failure reproduces: with one
 * trial per case the 8 regressions of 6b-verification against 6b-finetuning are only suspected
 * (1/1 → 0/1, Fisher p = 0.5); the confirm round adds 2 trials per side (3 in all) and 3/3 → 0/3
 * gives p = 0.05: confirmed.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { main } from "../main";
import { captureIo, GSM8K_BENCH_RUN } from "../testing";
import { withCliDatabase } from "../test-database";
import { seedDemoWorkspace } from "@/db/seed/demo";

const { dir } = withCliDatabase("benchwork-bench-reruns-", seedDemoWorkspace);

const run = GSM8K_BENCH_RUN;

describe("bench run --confirm / --rerun-errors", () => {
  it("--confirm reruns only the suspected cases, says what it adds, and the JSON shows them confirmed", async () => {
    const out = path.join(dir, "confirm.json");
    const io = captureIo();
    expect(await main([...run, "--confirm", "--rerun-errors", "--json-output", out], io)).toBe(1); // still blocked: the regressions are real
    const text = io.stdout.join("\n");
    expect(text).toContain("--rerun-errors: Bench #1 has no errored trial left to rerun.");
    expect(text).toMatch(
      /confirming 8 suspected regressions: 32 trials \(model-6b-finetuning: 16, model-6b-verification: 16\) on 8 cases, 0 model calls, 0 judge calls/,
    );
    const r = JSON.parse(readFileSync(out, "utf8"));
    expect(r.schemaVersion).toBe(1);
    expect(r.reruns).toEqual([expect.objectContaining({ kind: "confirm", trials: 32, modelCalls: 0 })]);
    expect(r.reruns[0].cases).toHaveLength(8);
    const cand = r.candidates[1];
    expect(cand.regressions.map((x: { regressionStatus: string }) => x.regressionStatus)).toEqual(Array(8).fill("confirmed"));
    // The confirm trials (2 more per side on the 8 cases) decide the statuses only: the rates and the
    // comparison stay those of the 200 planned trials per candidate (b = 8, c = 38 as without --confirm).
    expect(r.candidates.map((c: { trials: { total: number } }) => c.trials.total)).toEqual([200, 200]);
    expect(cand.comparisons[0]).toMatchObject({ n: 200, regressions: 8, fixes: 38, test: "exact McNemar" });
    expect(r.recommendation.ranking.find((x: { label: string }) => x.label === "model-6b-verification").blockers).toBe(8);
  });
});
