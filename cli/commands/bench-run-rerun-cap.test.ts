/**
 * `bench run --confirm` refused by the bench's spend cap (issue #16): the rerun would pass the cap
 * and no `--rerun-max-cost` was given, so no trial is added — and the command says so on stderr
 * and exits 1, so CI cannot take the run for a confirmed one (before, it exited by the gate's rule:
 * 0, the baseline being recommended). Costs come from the scripted server's fixed token usage:
 * every trial costs $1.00 (100,000 output tokens at $10 per million) plus 20 input tokens.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { main } from "../main";
import { captureIo } from "../testing";
import { withCliDatabase } from "../test-database";
import { addCases } from "@/db/queries/cases";
import { createModelConfig } from "@/db/queries/models";
import { savePromptRevision } from "@/db/queries/prompt-revisions";
import { createPrompt, createSystem, getPrompt } from "@/db/queries/systems";
import { emptyCaseContent } from "@/lib/library/case-content";
import { startScriptedModelServer, type ScriptedModelServer } from "@/e2e/fixtures/scripted-model-server";

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer({
    models: ["scripted-1"],
    script: [
      // The current revision (French) answers wrong, the previous one right: a regression, suspected with one trial per case.
      { name: "current", when: { systemIncludes: "Answer in French." }, reply: { text: "Hello", usage: { promptTokens: 20, completionTokens: 100_000 } } },
      { name: "previous", when: {}, reply: { text: "Bonjour", usage: { promptTokens: 20, completionTokens: 100_000 } } },
    ],
  });
});
afterAll(async () => {
  await server.close();
});
const { dir } = withCliDatabase("benchwork-bench-rerun-cap-", async (db) => {
  await createSystem(db, { id: "shop", name: "Shop" });
  const promptId = await createPrompt(db, { systemId: "shop", name: "greeter", systemPrompt: "Greet the customer." });
  await addCases(db, [
    {
      systemId: "shop",
      promptId,
      caseKey: "hi-1",
      source: "custom" as const,
      content: { ...emptyCaseContent(), input: "hi 1", expected: "Bonjour", evaluators: [{ kind: "contains" as const }] },
    },
  ]);
  await savePromptRevision(db, promptId, (await getPrompt(db, promptId))!.revision!.id, {
    systemPrompt: "Greet the customer. Answer in French.",
    modelSettings: {},
    tools: [],
    message: "answer in French",
  });
  await createModelConfig(db, {
    name: "scripted",
    provider: "openai-compatible",
    modelId: "scripted-1",
    baseUrl: server.url,
    inputPricePerMTok: 1,
    outputPricePerMTok: 10,
  });
});

const base = ["bench", "run", "--system", "shop", "--prompt", "greeter", "--candidate", "model:scripted@previous", "--candidate", "model:scripted@current"];

describe("bench run cut short by the spend cap (issue #16)", () => {
  it("a partial bench recommends nothing, says so on stderr and exits 1 (it recommended a candidate and exited 0)", async () => {
    const io = captureIo();
    const out = path.join(dir, "partial.json");
    // Each trial costs $1.00, far over its estimate: one at a time under a $0.50 cap, the first starts and spends $1.00, so the other is skipped as budget.
    const code = await main([...base, "--max-cost", "0.5", "--concurrency", "1", "--json-output", out], io);
    expect(code).toBe(1);
    const r = JSON.parse(readFileSync(out, "utf8"));
    expect(r.budget.skippedTrials).toBe(1);
    expect(r.partial).toEqual({ reason: "budget", finished: 1, total: 2, skippedForBudget: 1 });
    expect(r.recommendation.recommended).toBeNull();
    expect(r.recommendation.ranking.map((c: { recommended: boolean }) => c.recommended)).toEqual([false, false]);
    expect(r.recommendation.headline).toMatch(
      /^Partial bench, the spend cap stopped it after 1 of 2 trials \(1 skipped as budget\)\. No candidate is recommended/,
    );
    expect(r.recommendation.headline).not.toMatch(/no regression/);
    expect(io.stderr.join("\n")).toMatch(
      new RegExp(
        `^benchwork: bench #${r.benchId} is partial: the spend cap stopped it after 1 of 2 trials \\(1 skipped as budget\\), so no candidate is recommended; raise --max-cost and run it again\\.$`,
        "m",
      ),
    );
  });
});

describe("bench run --confirm under the spend cap", () => {
  it("refused by the cap (no --rerun-max-cost): says why on stderr, adds no trial and exits 1", async () => {
    const io = captureIo();
    const out = path.join(dir, "refused.json");
    // The first run's 2 trials ($2.00) fit under $3.00; the confirm round's 4 ($1.00 each) would not.
    const code = await main([...base, "--max-cost", "3", "--confirm", "--json-output", out], io);
    const err = io.stderr.join("\n");
    expect(err).toMatch(
      /^benchwork: --confirm was refused, so nothing was confirmed: The spend cap would stop this rerun: \$2\.00 of \$3\.00 spent, 0 of its 4 trials could start\. Raise the cap to at least \$6\.01 for the rerun \(\$2\.00 spent \+ \$4\.00 this rerun's cost \+ \$0\.0099 safety margin: [^)]*\) \(--rerun-max-cost USD\)\.$/m,
    );
    expect(code).toBe(1);
    const r = JSON.parse(readFileSync(out, "utf8"));
    expect(r.reruns).toEqual([]);
    expect(r.candidates.map((c: { trials: { total: number } }) => c.trials.total)).toEqual([1, 1]);
    // The regression stays suspected, and the baseline is what the gate recommends.
    expect(r.candidates[1].regressions.map((x: { regressionStatus: string }) => x.regressionStatus)).toEqual(["suspected"]);
  });

  it("with --rerun-max-cost high enough the round runs (the exit is the gate's again)", async () => {
    const io = captureIo();
    const out = path.join(dir, "raised.json");
    await main([...base, "--max-cost", "3", "--confirm", "--rerun-max-cost", "7", "--json-output", out], io);
    expect(io.stderr.join("\n")).not.toContain("refused");
    const r = JSON.parse(readFileSync(out, "utf8"));
    expect(r.reruns.map((x: { kind: string; trials: number }) => [x.kind, x.trials])).toEqual([["confirm", 4]]);
    // One cost for the round, from what the first run measured ($1.00 a trial), in the plan line and the JSON (issue #16 §3).
    expect(io.stdout.join("\n")).toContain(
      "output tokens (the plan's estimate), about $4.00 (each trial at what its candidate's trials of that case cost in this bench)",
    );
    // The plan's sentence names the cap as it was; the raise the round runs under is said too (it read "$3.00 … $1.00 left" only).
    expect(io.stdout.join("\n")).toContain("--confirm: the spend cap is raised to $7.00 for this rerun (--rerun-max-cost).");
    expect(r.reruns[0].estimate.costUsd).toBeCloseTo(4, 2);
    expect(r.reruns[0].estimate.costFrom).toEqual({ caseTrials: 4, candidateTrials: 0, plannedTrials: 0 });
    expect(r.candidates[1].regressions.map((x: { regressionStatus: string }) => x.regressionStatus)).toEqual(["confirmed"]);
  });
});
