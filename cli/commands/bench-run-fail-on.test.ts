/**
 * `bench run --fail-on` (issue #16, item 1 of the tester's pass): CI must not pass a change that is
 * worse. On the demo's GSM8K recorded candidates with model-175b-verification as the baseline,
 * model-6b-finetuning is worse by −32.5 points (p < 0.001) and blocked by its regressions; the
 * second run (the baseline no longer blocked against the last bench) exited 0 even with
 * `--fail-on inconclusive`. The default rule (exit 1 only when the best candidate is blocked) stays.
 */
import { describe, expect, it } from "vitest";
import { main } from "../main";
import { captureIo, gsm8kBenchRun } from "../testing";
import { withCliDatabase } from "../test-database";
import { seedDemoWorkspace } from "@/db/seed/demo";

withCliDatabase("benchwork-bench-fail-on-", seedDemoWorkspace);

// Baseline first: model-175b-verification (55.0 %), then model-6b-finetuning (22.5 %).
const worse = gsm8kBenchRun("model-175b-verification", "model-6b-finetuning");

describe("bench run --fail-on worse / inconclusive", () => {
  it("exits 1 when the primary candidate is worse or blocked, with worse, inconclusive or both; the default rule stays", async () => {
    // First run: the baseline is compared with no earlier bench of the prompt (the demo's seeded benches aside).
    await main(worse, captureIo());
    const plain = captureIo();
    // The best candidate (the baseline) is not blocked: the documented default rule exits 0.
    expect(await main(worse, plain)).toBe(0);
    expect(plain.stdout.join("\n")).toContain("model-6b-finetuning is worse than model-175b-verification by −32.5 points");
    // The candidate's line counts what blocks it as the headline does (issue #16: "2 regressions" vs the headline's 1).
    const blocking = /^model-6b-finetuning: 22\.5% .* · (\d+) blocking regressions \(\1 confirmed by deterministic replay\)/m.exec(plain.stdout.join("\n"));
    expect(blocking).not.toBeNull();
    expect(plain.stdout.join("\n")).toContain(`; ${blocking![1]} regressions block it (${blocking![1]} confirmed by deterministic replay)`);

    const w = captureIo();
    expect(await main([...worse, "--fail-on", "worse"], w)).toBe(1);
    expect(w.stderr.join("\n")).toContain("--fail-on worse: model-6b-finetuning is worse than model-175b-verification (−32.5 points, p < 0.001)");

    const inc = captureIo();
    expect(await main([...worse, "--fail-on", "inconclusive"], inc)).toBe(1);
    expect(inc.stderr.join("\n")).toContain("--fail-on inconclusive: model-6b-finetuning is worse than model-175b-verification");

    const both = captureIo();
    expect(await main([...worse, "--fail-on", "worse,inconclusive"], both)).toBe(1);
    expect(both.stderr.join("\n")).toContain("--fail-on worse: model-6b-finetuning is worse");
  }, 240_000);

  it("exits 1 under --fail-on worse when the primary candidate is better but blocked by its regressions", async () => {
    // model-175b-verification beats model-6b-finetuning by +32.5 points, but 12 regressions block it.
    const io = captureIo();
    expect(await main([...gsm8kBenchRun("model-6b-finetuning", "model-175b-verification"), "--fail-on", "worse"], io)).toBe(1);
    expect(io.stderr.join("\n")).toMatch(/--fail-on worse: model-175b-verification is blocked: \d+ blocking regressions/);
  }, 120_000);

  it("refuses a --fail-on it does not know, naming the accepted values", async () => {
    const io = captureIo();
    expect(await main([...worse, "--fail-on", "worse,flaky"], io)).toBe(2);
    expect(io.stderr.join("\n")).toContain('--fail-on takes worse and/or inconclusive, comma-separated (got "flaky")');
  });
});
