/**
 * `bench run --confirm` and `--rerun-errors` (issue #16 §3) on the demo's GSM8K recorded candidates.
 * Both sides are recorded and the broken check is code (gsm8k): a rerun would replay the same
 * answers, and three copies of one answer would "confirm" at Fisher p = 0.05 (the new-user pass saw
 * exactly that). So the 8 regressions of 6b-verification against 6b-finetuning are confirmed as
 * deterministic replays at once, without a Confirm round, and `--confirm` adds nothing and says why.
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
  it("--confirm adds no trial when every regression is a deterministic replay: they are confirmed without a Confirm round", async () => {
    const out = path.join(dir, "confirm.json");
    const md = path.join(dir, "confirm.md");
    const io = captureIo();
    // Exit 1 is the gate's (the best candidate is blocked: deterministic regressions block); --confirm itself is no error.
    expect(await main([...run, "--confirm", "--rerun-errors", "--json-output", out, "--markdown", md], io)).toBe(1);
    const text = io.stdout.join("\n");
    expect(text).toContain("--rerun-errors: Bench #1 has no errored trial left to rerun.");
    expect(io.stdout.filter((l) => l.startsWith("--confirm"))).toEqual(["--confirm: 8 regressions are deterministic replays: a rerun cannot change them."]);
    expect(text).not.toMatch(/confirming \d+ suspected/);
    const r = JSON.parse(readFileSync(out, "utf8"));
    expect(r.schemaVersion).toBe(1);
    expect(r.reruns).toEqual([]);
    const cand = r.candidates[1];
    expect(
      cand.regressions.map((x: { regressionStatus: string; regressionReason: string | null; regressionPValue: number | null }) => [
        x.regressionStatus,
        x.regressionReason,
        x.regressionPValue,
      ]),
    ).toEqual(Array(8).fill(["confirmed", "deterministic replay", null]));
    // No trial was added: 200 planned trials per candidate, and McNemar as without --confirm (b = 8, c = 38).
    expect(r.candidates.map((c: { trials: { total: number } }) => c.trials.total)).toEqual([200, 200]);
    expect(cand.comparisons[0]).toMatchObject({ n: 200, regressions: 8, fixes: 38, test: "exact McNemar" });
    // Still blocked, by 8 confirmed regressions; the headline and the comment say why they are confirmed.
    expect(r.recommendation.ranking.find((x: { label: string }) => x.label === "model-6b-verification").blockers).toBe(8);
    expect(text).toContain("8 regressions block it (8 confirmed by deterministic replay)");
    const comment = readFileSync(md, "utf8");
    expect(comment).toContain("8 (8 confirmed by deterministic replay)");
    expect(comment).toMatch(
      /^\| model-6b-verification \| `gsm8k_test_0021` \| Final answer after A: .* \| baseline \| confirmed \(deterministic replay\) \|$/m,
    );
  });
});
