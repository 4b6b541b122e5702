import { describe, expect, it } from "vitest";
import { openMemoryDatabase } from "@/db/client";
import { seedDemoWorkspace } from "@/db/seed/demo";
import { listPrompts } from "@/db/queries/systems";
import { getBench } from "@/db/queries/benches";
import { listCases } from "@/db/queries/cases";
import { launchFromRequest } from "./prepare";
import { startBenchWorker } from "../worker";

/** A New bench request for the GSM8K solver over recorded columns `names` (every case, concurrency 8). */
function gsmRequest(promptId: number, names: string[], o: Partial<Parameters<typeof launchFromRequest>[1]> = {}): Parameters<typeof launchFromRequest>[1] {
  return {
    systemId: "grade-school-math",
    promptId,
    candidates: names.map((n) => ({ kind: "recorded" as const, recordedName: n })),
    baseline: { kind: "none" },
    selection: { kind: "all" },
    budget: null,
    repeats: 1,
    concurrency: 8,
    timeoutSeconds: 30,
    maxSteps: 5,
    judgeModelConfigId: null,
    launchKey: `gsm-${Math.random()}`,
    ...o,
  };
}

/** Runs bench `id` with an in-process worker until the worker has finalized it (however long that takes). */
async function runToEnd(db: ReturnType<typeof openMemoryDatabase>, id: number) {
  let finalized!: () => void;
  const ended = new Promise<void>((r) => (finalized = r));
  const worker = startBenchWorker(db, { env: {}, pollMs: 20, onBenchFinished: (b) => b === id && finalized() });
  await ended;
  await worker.stop(1000);
  return (await getBench(db, id))!;
}

describe("the demo GSM8K bench on recorded solutions (no model, no key)", () => {
  it("scores the four recorded models like the source's is_correct flags and recommends none that breaks a passing check", async () => {
    const db = openMemoryDatabase();
    await seedDemoWorkspace(db);
    const solver = (await listPrompts(db, "grade-school-math"))[0];
    const names = ["model-6b-finetuning", "model-6b-verification", "model-175b-finetuning", "model-175b-verification"];
    const { id, plan } = await launchFromRequest(
      db,
      gsmRequest(solver.id, names, { baseline: { kind: "candidate", index: 0 }, concurrency: 16, launchKey: "test-launch-gsm8k-1" }),
    );
    expect(plan.includedCount).toBe(200);
    expect(plan.trialCount).toBe(800);
    expect(plan.modelCalls).toBe(0);
    // A double click is one bench.
    const again = await launchFromRequest(db, gsmRequest(solver.id, [names[0]], { concurrency: 16, launchKey: "test-launch-gsm8k-1" }));
    expect(again).toMatchObject({ id, created: false });

    const bench = await runToEnd(db, id);
    const passed = bench.candidates.map((c) => bench.summary!.candidates.find((s) => s.candidateId === c.id)!.stats.passRate);
    expect(passed.map((p) => [p.passed, p.scored])).toEqual([
      [45, 200],
      [75, 200],
      [65, 200],
      [110, 200],
    ]);
    const rec = bench.recommendation!;
    // Every model that scores higher than the 6B finetuned baseline still fails some problems the baseline solved.
    const ranked = rec.candidates.map((c) => [c.label, c.blockers.length > 0]);
    expect(ranked[0]).toEqual(["model-175b-verification", true]);
    expect(rec.recommendedCandidateId).toBe(bench.candidates[0].id);
    expect(rec.headline).toMatch(/^Keep the baseline model-6b-finetuning/);
    expect(bench.summary!.retained).toBeGreaterThan(100);
    // Retained regression candidates appear in the library, labelled as such.
    const retained = await listCases(db, { systemId: "grade-school-math", source: "retained" });
    expect(retained.total).toBe(bench.summary!.retained);
    // The New bench form's counts stay the number of problems: a retained copy whose original is
    // still in the library is not a case of its own (the next plan leaves it out as a duplicate).
    const { recordedNames } = await import("@/db/queries/prompt-facets");
    expect((await recordedNames(db, solver.id)).map((r) => r.cases)).toEqual([200, 200, 200, 200]);
  }, 60_000);
});

describe("live statistics of a running bench", () => {
  it("match the full aggregation on pass rates and counts", async () => {
    const { liveCandidateStats, trialFacts } = await import("@/db/queries/bench-results");
    const { aggregateCandidates } = await import("@/lib/bench/aggregate");
    const db = openMemoryDatabase();
    await seedDemoWorkspace(db);
    const solver = (await listPrompts(db, "grade-school-math"))[0];
    const { id } = await launchFromRequest(db, gsmRequest(solver.id, ["model-6b-verification"], { repeats: 2, concurrency: 4, launchKey: "live-stats-1" }));
    const bench = await runToEnd(db, id);
    const ids = bench.candidates.map((c) => c.id);
    const [live] = await liveCandidateStats(db, id, ids);
    const facts = [...(await trialFacts(db, id))];
    const [full] = aggregateCandidates(ids, facts);
    // Facts keep what aggregation reads, not each check's message (memory when a large bench ends).
    expect(Object.keys(facts[0].checks![0]).sort()).toEqual(["key", "kind", "label", "verdict"]);
    expect(facts[0].checks![0].label).toBe(facts[1].checks![0].label);
    expect(live.passRate).toEqual(full.passRate);
    expect(live.passRate).toEqual({ passed: 150, scored: 400, rate: 0.375 });
    expect(live.checks).toEqual(full.checks);
    expect(live.trials).toEqual(full.trials);
    expect(live.trialPassRate).toEqual(full.trialPassRate);

    // Repeats: each case's trials in repeat order, and the matrix says how many of them passed.
    const { exportTrialRows, matrixRows, repeatTrials } = await import("@/db/queries/bench-matrix");
    const rows = await exportTrialRows(db, id);
    expect(rows).toHaveLength(400);
    expect(rows.slice(0, 2).map((r) => [r.caseId, r.repeat])).toEqual([
      [rows[0].caseId, 1],
      [rows[0].caseId, 2],
    ]);
    const first = db.$client.prepare("SELECT candidate_id AS c, bench_case_id AS bc FROM trials WHERE id = ?").get(rows[0].trial) as { c: number; bc: number };
    expect(await repeatTrials(db, id, first.c, first.bc)).toEqual([
      { id: rows[0].trial, repeat: 1, rerun: null, rerunOf: null },
      { id: rows[1].trial, repeat: 2, rerun: null, rerunOf: null },
    ]);
    const matrix = await matrixRows(db, id);
    const cells = matrix.map((m) => m.cells[ids[0]]);
    expect(cells.reduce((n, c) => n + c.passedTrials, 0)).toBe(150);
    expect(cells.every((c) => c.trials === 2)).toBe(true);
    expect(new Set(cells.map((c) => c.verdict))).toEqual(new Set(["passed", "failed"]));
  }, 60_000);
});

describe("results export (CSV and JSON)", () => {
  it("holds one row per trial with the verdicts and figures the bench page shows", async () => {
    const { GET } = await import("@/app/api/benches/[benchId]/export/route");
    const Papa = (await import("papaparse")).default;
    const db = openMemoryDatabase();
    await seedDemoWorkspace(db);
    (globalThis as { benchworkDb?: unknown }).benchworkDb = db; // the connection getDb() hands the route
    const solver = (await listPrompts(db, "grade-school-math"))[0];
    const { id } = await launchFromRequest(
      db,
      gsmRequest(solver.id, ["model-6b-finetuning", "model-175b-verification"], {
        baseline: { kind: "candidate", index: 0 },
        budget: 20,
        launchKey: "export-1",
      }),
    );
    const bench = await runToEnd(db, id);
    const call = (q: string) => GET(new Request(`http://x/api/benches/${id}/export${q}`), { params: Promise.resolve({ benchId: String(id) }) });

    const json = await (await call("?format=json")).json();
    expect(json.bench).toMatchObject({ id, status: "finished", prompt: solver.name });
    expect(json.trials).toHaveLength(40);
    expect(json.manifest.filter((m: { included: boolean }) => m.included)).toHaveLength(20);
    const passedOf = (label: string) =>
      json.trials.filter(
        (t: { candidate: string; passedChecks: number; failedChecks: number }) => t.candidate === label && t.failedChecks === 0 && t.passedChecks > 0,
      ).length;
    const stats = bench.candidates.map((c) => bench.summary!.candidates.find((s) => s.candidateId === c.id)!.stats);
    expect([passedOf("model-6b-finetuning"), passedOf("model-175b-verification")]).toEqual(stats.map((s) => s.trialPassRate.passed));
    expect(json.candidates.map((c: { stats: { passRate: unknown } }) => c.stats.passRate)).toEqual(stats.map((s) => s.passRate));
    expect(json.recommendation.recommendedCandidateId).toBe(bench.recommendation!.recommendedCandidateId);

    const res = await call("?format=csv");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="bench-${id}.csv"`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // the byte-order mark spreadsheets need
    const table = Papa.parse<string[]>(new TextDecoder().decode(bytes), { skipEmptyLines: true }).data;
    expect(table[0]).toEqual([
      "trial",
      "candidate",
      "caseId",
      "caseRevision",
      "input",
      "expected",
      "repeat",
      "status",
      "passedChecks",
      "failedChecks",
      "unscoredChecks",
      "errorChecks",
      "output",
      "toolCalls",
      "finishReason",
      "latencyMs",
      "inputTokens",
      "outputTokens",
      "costUsd",
      "error",
      "checks",
      "rerun",
      "rerunOf",
    ]);
    expect(table).toHaveLength(41);
    expect(table.slice(1).map((r) => Number(r[0]))).toEqual(json.trials.map((t: { trial: number }) => t.trial));
    expect(table[1][20]).toMatch(/^(passed|failed): .+ — .+/);

    expect((await call("?format=xml")).status).toBe(400);
    const missing = await GET(new Request("http://x/api/benches/999999/export"), { params: Promise.resolve({ benchId: "999999" }) });
    expect(missing.status).toBe(404);
    delete (globalThis as { benchworkDb?: unknown }).benchworkDb;
  }, 60_000);
});
