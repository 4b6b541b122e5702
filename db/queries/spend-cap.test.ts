/**
 * The spend cap through the real claim path (issue #16 §4; the job queue's claim since issue 20):
 * two job workers on one temp SQLite file,
 * each with the bench's concurrency, start no more trials than the cap permits; the rest end
 * `skipped` with the reason "budget" and the bench finishes normally.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { migrateDatabase, openDatabase, type Db } from "../client";
import { seedDemoWorkspace } from "../seed/demo";
import { listPrompts } from "./systems";
import { getBench } from "./benches";
import { createModelConfig } from "./models";
import { SqliteTrialJobQueue } from "./trial-job-queue";
import { benchesToCancel, benchesToFinalize, claimedTrialRows } from "./trial-jobs";
import { finalizeBench } from "./bench-finalize";
import { launchFromRequest } from "@/server/bench/prepare";
import { startJobWorker } from "@/lib/bench/job-worker";
import type { TrialExecutor } from "@/lib/bench/worker";
import { isBudgetSkip } from "@/lib/bench/budget";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MatrixView } from "@/components/benches/matrix-view";
import { matrixRows } from "./bench-matrix";
import { benchSpend } from "./bench-budget";

const dir = mkdtempSync(path.join(tmpdir(), "benchwork-spend-cap-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function launch(
  file: string,
  spendCapUsd: number | null,
  concurrency = 4,
  o: { candidates?: number; repeats?: number; priceOf?: (i: number) => number } = {},
) {
  const price = o.priceOf ?? (() => 1);
  const db = openDatabase(file);
  migrateDatabase(db);
  await seedDemoWorkspace(db);
  const router = (await listPrompts(db, "customer-support")).find((p) => p.name === "intent-router")!;
  const modelId = await createModelConfig(db, {
    name: "priced",
    provider: "openai-compatible",
    modelId: "x",
    baseUrl: "http://127.0.0.1:9/v1",
    inputPricePerMTok: 1,
    outputPricePerMTok: 2,
  });
  const { id } = await launchFromRequest(db, {
    systemId: "customer-support",
    promptId: router.id,
    candidates: await Promise.all(
      Array.from({ length: o.candidates ?? 1 }, async (_, i) => ({
        kind: "model" as const,
        // Each candidate its own configuration (a bench refuses twins), priced alike.
        modelConfigId:
          i === 0
            ? modelId
            : await createModelConfig(db, {
                name: `priced-${i}`,
                provider: "openai-compatible",
                modelId: `x${i}`,
                baseUrl: "http://127.0.0.1:9/v1",
                inputPricePerMTok: price(i),
                outputPricePerMTok: 2 * price(i),
              }),
      })),
    ),
    baseline: (o.candidates ?? 1) > 1 ? { kind: "candidate", index: 0 } : { kind: "none" },
    selection: { kind: "all" },
    budget: 10,
    repeats: o.repeats ?? 1,
    concurrency,
    timeoutSeconds: 5,
    maxSteps: 1,
    judgeModelConfigId: null,
    launchKey: `cap-${Math.random()}`,
    spendCapUsd,
  });
  return { db, id };
}

/** Trials that each cost exactly the plan's estimate, wait on the others a little, and count how many run at once. */
function executor(costUsd: number, seen: { running: number; max: number; started: number }): TrialExecutor {
  return {
    providerKey: () => null,
    async run(t, _signal, _limits, started) {
      started?.();
      seen.started++;
      seen.max = Math.max(seen.max, ++seen.running);
      await new Promise((r) => setTimeout(r, 5));
      seen.running--;
      return {
        id: t.id,
        status: "done",
        startedAt: 1,
        finishedAt: 2,
        latencyMs: 5,
        inputTokens: 1,
        outputTokens: 1,
        costUsd,
        finishReason: "stop",
        output: "ok",
        record: null,
        checks: [],
        error: null,
      };
    },
  };
}

/** Runs the bench to its end with one job worker per connection (each its own queue, as processes on one file). */
async function runToEnd(dbs: Db[], benchId: number, exec: TrialExecutor) {
  let finished!: () => void;
  const done = new Promise<void>((r) => (finished = r));
  const workers = dbs.map((db, i) =>
    startJobWorker({
      queue: new SqliteTrialJobQueue(db),
      workerId: `w${i}`,
      leaseMs: 60_000,
      loadTrials: (ids) => claimedTrialRows(db, ids),
      executorFor: async () => exec,
      cancelRequested: () => benchesToCancel(db),
      finalizable: () => benchesToFinalize(db),
      finalize: async (b, now) => (await finalizeBench(db, b, now)) !== null,
      pollMs: 10,
      onBenchFinished: (b) => b === benchId && finished(),
    }),
  );
  await done; // however long it takes (the test's timeout bounds it)
  for (const w of workers) await w.stop(500);
}

describe("spend cap", () => {
  it("stops early with paired trials: the candidates of a case run side by side, not one candidate's repeats first", async () => {
    // Found by a new-user pass: trials were queued case → candidate → repeat, so a tight cap spent
    // everything on the first candidate and the bench had nothing to compare.
    const probe = await launch(path.join(dir, "probe-pair.db"), 1, 1, { candidates: 2, repeats: 2 });
    const est = (await getBench(probe.db, probe.id))!.settings.spendCap!.trialEstimateUsd;
    probe.db.$client.close();
    const { db, id: benchId } = await launch(path.join(dir, "pair.db"), est * 2.5, 1, { candidates: 2, repeats: 2 });
    await runToEnd([db], benchId, executor(est, { running: 0, max: 0, started: 0 }));
    const done = db.$client
      .prepare(
        "SELECT c.position AS candidate, t.repeat AS repeat, t.bench_case_id AS benchCase FROM trials t JOIN bench_candidates c ON c.id = t.candidate_id WHERE t.bench_id = ? AND t.status = 'done' ORDER BY t.id",
      )
      .all(benchId) as { candidate: number; repeat: number; benchCase: number }[];
    expect(done.map((d) => [d.candidate, d.repeat])).toEqual([
      [0, 1],
      [1, 1],
    ]);
    expect(done[0].benchCase).toBe(done[1].benchCase);
    db.$client.close();
  });

  it("starts no more trials than the cap permits, with two workers at concurrency 4, and skips the rest as budget", async () => {
    // The plan's per-trial estimate (a probe bench on its own file), then a cap with room for 3.5 trials.
    const probe = await launch(path.join(dir, "probe.db"), 1);
    const est = (await getBench(probe.db, probe.id))!.settings.spendCap!.trialEstimateUsd;
    expect(est).toBeGreaterThan(0);
    probe.db.$client.close();

    const file = path.join(dir, "cap.db");
    const { db: a, id: benchId } = await launch(file, est * 3.5);
    const b = openDatabase(file);
    const seen = { running: 0, max: 0, started: 0 };
    await runToEnd([a, b], benchId, executor(est, seen));

    const bench = (await getBench(a, benchId))!;
    expect(bench.status).toBe("finished");
    expect(bench.settings.spendCap).toEqual({ usd: est * 3.5, trialEstimateUsd: est, candidateTrialUsd: [est] });
    expect(seen.started).toBe(3);
    expect(seen.max).toBeLessThanOrEqual(3);
    const rows = a.$client.prepare("SELECT status, error FROM trials WHERE bench_id = ? ORDER BY id").all(benchId) as {
      status: string;
      error: string | null;
    }[];
    expect(rows.filter((r) => r.status === "done")).toHaveLength(3);
    const skipped = rows.filter((r) => r.status === "skipped");
    expect(skipped).toHaveLength(7);
    expect(skipped.every((r) => isBudgetSkip(r.error))).toBe(true);
    expect(skipped[0].error).toMatch(/^budget: the spend cap of \$/);
    const spent = (a.$client.prepare("SELECT spent_usd AS s FROM benches WHERE id = ?").get(benchId) as { s: number }).s;
    expect(spent).toBeCloseTo(est * 3, 12);
    // The matrix says why: the cells of trials the cap kept from starting read "skipped: budget".
    const matrix = await matrixRows(a, benchId);
    const candId = bench.candidates[0].id;
    expect(matrix.map((r) => r.cells[candId].budgetSkipped ?? 0)).toEqual([0, 0, 0, 1, 1, 1, 1, 1, 1, 1]);
    const html = renderToStaticMarkup(
      createElement(MatrixView, {
        rows: matrix,
        candidates: bench.candidates,
        total: matrix.length,
        page: 1,
        pageCount: 1,
        pageSize: 50,
        filter: "all",
        sort: "position",
        href: () => "#",
        regressionKeys: new Set<string>(),
        regressedCells: new Map(),
      }),
    );
    expect(html.match(/skipped: budget/g)).toHaveLength(7);
    expect(await benchSpend(a, benchId)).toMatchObject({ budgetSkippedTotal: 7, budgetSkipped: new Map([[candId, 7]]) });
    a.$client.close();
    b.$client.close();
  });

  it("counts running trials at the estimate and what finished at its real cost: trials at half the estimate let 6 start under a 3.5-trial cap", async () => {
    const probe = await launch(path.join(dir, "probe2.db"), 1);
    const est = (await getBench(probe.db, probe.id))!.settings.spendCap!.trialEstimateUsd;
    probe.db.$client.close();
    const file = path.join(dir, "half.db");
    const { db: a, id: benchId } = await launch(file, est * 3.5);
    const b = openDatabase(file);
    const seen = { running: 0, max: 0, started: 0 };
    await runToEnd([a, b], benchId, executor(est / 2, seen));
    // A start needs spent + (running + 1) × est ≤ 3.5 est; once spent > 2.5 est (the 6th finished at
    // 0.5 est each) none can: 6 trials, whatever order they finish in.
    expect(seen.started).toBe(6);
    const spent = (a.$client.prepare("SELECT spent_usd AS s FROM benches WHERE id = ?").get(benchId) as { s: number }).s;
    expect(spent).toBeCloseTo(3 * est, 12);
    expect(spent).toBeLessThanOrEqual(3.5 * est);
    expect((await getBench(a, benchId))!.status).toBe("finished");
    a.$client.close();
    b.$client.close();
  });

  it("counts a running trial at the finished trials' mean cost once it is above the plan's estimate, so real costs over the estimate still keep within the cap", async () => {
    const probe = await launch(path.join(dir, "probe3.db"), 1);
    const est = (await getBench(probe.db, probe.id))!.settings.spendCap!.trialEstimateUsd;
    probe.db.$client.close();
    // One trial at a time, each costing twice the plan's estimate, under a cap of 5 estimates: after
    // 2 trials (4 estimates spent, 2 per trial) a third would pass the cap. At the plan's estimate
    // alone it started (4 + 1 ≤ 5) and the bench spent 6.
    const { db, id: benchId } = await launch(path.join(dir, "over.db"), est * 5, 1);
    const seen = { running: 0, max: 0, started: 0 };
    await runToEnd([db], benchId, executor(est * 2, seen));
    expect(seen.started).toBe(2);
    const spent = db.$client.prepare("SELECT spent_usd AS s, spent_trials AS n FROM benches WHERE id = ?").get(benchId) as { s: number; n: number };
    expect(spent.n).toBe(2);
    expect(spent.s).toBeCloseTo(est * 4, 12);
    db.$client.close();
  });

  it("counts each candidate's running trials at its own cost: a candidate priced 10× the other does not start past the cap (issue #16 §4)", async () => {
    // Found by two testers: a $2.00 cap spent $2.20 when one candidate cost 10× the others. The
    // launch stores each candidate's cost per trial from its prices; trials cost exactly that.
    const file = path.join(dir, "mixed.db");
    const probe = await launch(path.join(dir, "probe-mixed.db"), 1, 8, { candidates: 2, priceOf: (i) => (i === 0 ? 1 : 10) });
    const est = (await getBench(probe.db, probe.id))!.settings.spendCap!;
    probe.db.$client.close();
    expect(est.candidateTrialUsd).toHaveLength(2);
    expect(est.candidateTrialUsd![1]).toBeCloseTo(est.candidateTrialUsd![0] * 10, 12);
    expect(est.trialEstimateUsd).toBeCloseTo((est.candidateTrialUsd![0] + est.candidateTrialUsd![1]) / 2, 12);
    // Room for about 4 pairs of the 10.
    const capUsd = (est.candidateTrialUsd![0] + est.candidateTrialUsd![1]) * 4.5;
    const { db, id: benchId } = await launch(file, capUsd, 8, { candidates: 2, priceOf: (i) => (i === 0 ? 1 : 10) });
    const bench = (await getBench(db, benchId))!;
    const costOf = new Map(bench.candidates.map((c) => [c.id, bench.settings.spendCap!.candidateTrialUsd![c.position]]));
    const exec = executor(0, { running: 0, max: 0, started: 0 });
    await runToEnd([db, openDatabase(file)], benchId, {
      ...exec,
      run: async (t, ...rest) => ({ ...(await exec.run(t, ...rest)), costUsd: costOf.get(t.candidateId)! }),
    });
    const spent = db.$client.prepare("SELECT spent_usd AS s FROM benches WHERE id = ?").get(benchId) as { s: number };
    expect(spent.s).toBeLessThanOrEqual(capUsd + 1e-9);
    // It stopped at the cap, not long before: one more dear trial would have passed it.
    expect(spent.s + est.candidateTrialUsd![1]).toBeGreaterThan(capUsd);
    const perCandidate = db.$client
      .prepare(
        "SELECT c.spent_usd AS s, (SELECT count(*) FROM trials t WHERE t.candidate_id = c.id AND t.status = 'done') AS n FROM bench_candidates c WHERE c.bench_id = ? ORDER BY c.position",
      )
      .all(benchId) as { s: number; n: number }[];
    expect(perCandidate.map((c) => c.s)).toEqual([
      expect.closeTo(perCandidate[0].n * est.candidateTrialUsd![0], 12),
      expect.closeTo(perCandidate[1].n * est.candidateTrialUsd![1], 12),
    ]);
    expect(await benchSpend(db, benchId)).toMatchObject({ budgetSkippedTotal: 20 - perCandidate[0].n - perCandidate[1].n });
    db.$client.close();
  });

  it("refuses a cap when a model of the bench has no prices, naming the field", async () => {
    const db = openDatabase(path.join(dir, "noprice.db"));
    migrateDatabase(db);
    await seedDemoWorkspace(db);
    const router = (await listPrompts(db, "customer-support")).find((p) => p.name === "intent-router")!;
    const modelId = await createModelConfig(db, { name: "free", provider: "openai-compatible", modelId: "x", baseUrl: "http://127.0.0.1:9/v1" });
    await expect(
      launchFromRequest(db, {
        systemId: "customer-support",
        promptId: router.id,
        candidates: [{ kind: "model", modelConfigId: modelId }],
        baseline: { kind: "none" },
        selection: { kind: "all" },
        budget: 10,
        repeats: 1,
        concurrency: 4,
        timeoutSeconds: 5,
        maxSteps: 1,
        judgeModelConfigId: null,
        launchKey: "cap-noprice",
        spendCapUsd: 1,
      }),
    ).rejects.toMatchObject({ code: "validation", fieldErrors: { spendCapUsd: expect.stringMatching(/needs prices/) } });
    db.$client.close();
  });
});
