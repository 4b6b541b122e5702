/**
 * `bench run` against the scripted model server (issue #16 §4): a priced model whose current prompt
 * revision answers with ten times the tokens; `--max-cost-increase 30` blocks it with the named
 * reason in the headline, the JSON (comparisons[].tradeoffs, ranking[].limitBlockers) and the
 * Markdown; a spend cap below one trial's estimate skips every trial as "budget" and the bench
 * still finishes. Costs come from the script's fixed token usage, never from timing.
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
      // r2 (French) answers right with 100 completion tokens; r1 answers wrong with 10.
      { name: "r2", when: { systemIncludes: "Answer in French." }, reply: { text: "Bonjour", usage: { promptTokens: 20, completionTokens: 100 } } },
      { name: "r1", when: {}, reply: { text: "Hello", usage: { promptTokens: 20, completionTokens: 10 } } },
    ],
  });
});
afterAll(async () => {
  await server.close();
});
const { dir } = withCliDatabase("benchwork-bench-tradeoffs-", async (db) => {
  await createSystem(db, { id: "shop", name: "Shop" });
  const promptId = await createPrompt(db, { systemId: "shop", name: "greeter", systemPrompt: "Greet the customer." });
  await addCases(
    db,
    [1, 2, 3, 4].map((i) => ({
      systemId: "shop",
      promptId,
      caseKey: `hi-${i}`,
      source: "custom" as const,
      content: { ...emptyCaseContent(), input: `hi ${i}`, expected: "Bonjour", evaluators: [{ kind: "contains" as const }] },
    })),
  );
  await savePromptRevision(db, promptId, (await getPrompt(db, promptId))!.revision!.id, {
    systemPrompt: "Greet the customer. Answer in French.",
    modelSettings: {},
    tools: [],
    message: "answer in French",
  });
  // $1 per million input tokens, $10 per million output: r1 trials cost (20 + 100) / 1e6, r2 trials (20 + 1000) / 1e6.
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

describe("bench run cost trade-offs and gate limits", () => {
  it("blocks the candidate whose cost per case passes the limit, naming it in the headline, JSON and Markdown", async () => {
    const io = captureIo();
    const out = path.join(dir, "limits.json");
    const md = path.join(dir, "limits.md");
    await main([...base, "--max-cost-increase", "30", "--json-output", out, "--markdown", md], io);
    const r = JSON.parse(readFileSync(out, "utf8"));
    expect(r.schemaVersion).toBe(1);
    const cmp = r.candidates[1].comparisons[0];
    expect(cmp.against).toBe("baseline");
    // (20 + 1000) / (20 + 100) − 1 = 7.5 exactly; every case the same, so a zero-width t interval.
    expect(cmp.tradeoffs.costPerCase.n).toBe(4);
    expect(cmp.tradeoffs.costPerCase.relative).toBeCloseTo(7.5, 9);
    expect(cmp.tradeoffs.costPerCase.delta).toBeCloseTo(0.0009, 12);
    expect(cmp.tradeoffs.costPerCase.ci95[0]).toBeCloseTo(0.0009, 12);
    expect(cmp.tradeoffs.latencyP95.n).toBe(4);
    const ranked = r.recommendation.ranking.find((x: { label: string }) => x.label.includes("r2"));
    expect(ranked.limitBlockers).toEqual(["cost per case +750 % exceeds the +30 % limit"]);
    expect(r.recommendation.recommended).toBeNull();
    expect(r.recommendation.headline).toMatch(/passes the gate's regression check but cost per case \+750 % exceeds the \+30 % limit\.$/);
    expect(r.budget).toMatchObject({ spendCapUsd: null, maxCostIncreasePct: 30, maxLatencyIncreasePct: null });
    expect(r.budget.spentUsd).toBeCloseTo(4 * 0.00012 + 4 * 0.00102, 12);
    const text = readFileSync(md, "utf8");
    expect(text).toContain("#### Cost and latency vs the baseline (paired cases)");
    expect(text).toMatch(
      /\| scripted · greeter r2 · answer in French \| \+\$0\.00090 \(95 % CI \+\$0\.00090 to \+\$0\.00090\) · \+750 % \| .* \| cost per case \+750 % exceeds the \+30 % limit \|/,
    );
    expect(io.stdout.join("\n")).toMatch(/vs baseline: cost per case \+\$0\.00090/);
    // Issue #16: the candidate's own line names the limit that blocks it (it was only in the JSON and the Markdown).
    expect(io.stdout.join("\n")).toMatch(
      /^scripted · greeter r2 · answer in French: .* · blocked by the gate: cost per case \+750 % exceeds the \+30 % limit$/m,
    );
  }, 60_000);

  it("a spend cap below one trial's estimate skips every trial as budget, and the bench finishes", async () => {
    const io = captureIo();
    const out = path.join(dir, "cap.json");
    await main([...base, "--max-cost", "0.000001", "--json-output", out], io);
    const r = JSON.parse(readFileSync(out, "utf8"));
    expect(r.status).toBe("finished");
    expect(r.budget).toMatchObject({ spendCapUsd: 0.000001, spentUsd: 0, skippedTrials: 8 });
    expect(r.candidates.map((c: { skippedForBudget: number; trials: { skipped: number } }) => [c.skippedForBudget, c.trials.skipped])).toEqual([
      [4, 4],
      [4, 4],
    ]);
    expect(io.stdout.join("\n")).toContain("note: The estimated cost");
    expect(io.stdout.join("\n")).toMatch(/8 trials skipped as budget: the spend cap of \$0\.0000010 kept them from starting \(\$0\.00 spent\)\./);
  }, 60_000);
});
