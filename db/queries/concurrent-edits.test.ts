/**
 * Editing the case library while a bench runs (issue "Seal the server and the sandboxes" #7):
 * before write transactions took the write lock up front, 2–3 % of the edits failed with
 * "Something went wrong" (SQLITE_BUSY_SNAPSHOT) whenever the worker — or another server on the same
 * file — committed between an edit's read and its write. Here a bench worker claims and finishes
 * trials on one connection while three threads, each with its own connection, make 300 edits
 * through the real query functions.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { migrateDatabase, openDatabase, type Db } from "../client";
import { addCases } from "./cases";
import { createModelConfig } from "./models";
import { createPrompt, createSystem } from "./systems";
import { SqliteTrialJobQueue } from "./trial-job-queue";
import { benchesToCancel, benchesToFinalize, claimedTrialRows } from "./trial-jobs";
import { finalizeBench } from "./bench-finalize";
import { launchFromRequest } from "@/server/bench/prepare";
import { startJobWorker } from "@/lib/bench/job-worker";
import type { TrialExecutor } from "@/lib/bench/worker";
import { emptyCaseContent } from "@/lib/library/case-content";
import { bundle } from "../../scripts/bundle.mjs";
import type { CaseEditsData, CaseEditsResult } from "./test-support/case-edits-thread";

const dir = mkdtempSync(path.join(tmpdir(), "benchwork-edits-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Answers at once (next turn of the event loop): the worker claims and stores as fast as it can. */
const instant: TrialExecutor = {
  providerKey: () => null,
  async run(t, _signal, _limits, started) {
    started?.();
    await new Promise((r) => setImmediate(r));
    return {
      id: t.id,
      status: "done",
      startedAt: 1,
      finishedAt: 2,
      latencyMs: 0,
      inputTokens: 1,
      outputTokens: 1,
      costUsd: null,
      finishReason: "stop",
      output: "ok",
      record: null,
      checks: [],
      error: null,
    };
  },
};

const count = (db: Db, sql: string) => (db.$client.prepare(sql).get() as { n: number }).n;

/** Starts a thread running `runCaseEdits` and resolves once it is ready for "go". */
async function editThread(entry: string, data: CaseEditsData): Promise<{ go(): Promise<CaseEditsResult> }> {
  const w = new Worker(entry, { workerData: data });
  await new Promise<void>((resolve, reject) => {
    w.once("message", () => resolve());
    w.once("error", reject);
  });
  return {
    go() {
      const result = new Promise<CaseEditsResult>((resolve, reject) => {
        w.once("message", (m: CaseEditsResult) => resolve(m));
        w.once("error", reject);
      });
      w.postMessage("go");
      return result.finally(() => w.terminate());
    },
  };
}

describe("case edits while a bench runs on the same file", () => {
  it("all 300 edits from three other connections succeed while the worker claims and finishes trials", async () => {
    const file = path.join(dir, "b.db");
    const db = openDatabase(file);
    migrateDatabase(db);
    await createSystem(db, { id: "s", name: "S" });
    const promptId = await createPrompt(db, { systemId: "s", name: "p", systemPrompt: "Answer." });
    await addCases(
      db,
      Array.from({ length: 20 }, (_, i) => ({
        systemId: "s",
        promptId,
        caseKey: `bench-${i}`,
        source: "custom" as const,
        content: { ...emptyCaseContent(), input: `q${i}`, expected: "a" },
      })),
    );
    const model = await createModelConfig(db, { name: "m", provider: "openai-compatible", modelId: "m", baseUrl: "http://127.0.0.1:9/v1" });
    // The edits' cases join the prompt's library but not the benches below: those pin their cases.
    const launch = () =>
      launchFromRequest(db, {
        systemId: "s",
        promptId,
        candidates: [{ kind: "model", modelConfigId: model }],
        baseline: { kind: "none" },
        selection: { kind: "all" },
        budget: 20,
        repeats: 100,
        concurrency: 32,
        timeoutSeconds: 10,
        maxSteps: 1,
        judgeModelConfigId: null,
        launchKey: `k-${Math.random()}`,
      });
    await launch();
    let editing = true;
    const workerErrors: string[] = [];
    // A bench that ends while the edits still run is followed by another: the worker never idles.
    const worker = startJobWorker({
      queue: new SqliteTrialJobQueue(db),
      workerId: "w1",
      leaseMs: 60_000,
      loadTrials: (ids) => claimedTrialRows(db, ids),
      executorFor: async () => instant,
      cancelRequested: () => benchesToCancel(db),
      finalizable: () => benchesToFinalize(db),
      finalize: async (b, now) => (await finalizeBench(db, b, now)) !== null,
      pollMs: 10,
      onBenchFinished: () => void (editing && launch().then(() => worker.wake())),
      onError: (e) => workerErrors.push(`${(e as { code?: string }).code ?? ""} ${(e as Error).message}`),
    });

    const entry = await bundle({
      root: process.cwd(),
      name: "case-edits-thread",
      contents: `import { parentPort, workerData } from "node:worker_threads";\nimport { runCaseEdits } from "./db/queries/test-support/case-edits-thread.ts";\nrunCaseEdits(parentPort, workerData);\n`,
    });
    const threads = await Promise.all(["a", "b", "c"].map((prefix) => editThread(entry, { dbPath: file, systemId: "s", promptId, prefix, edits: 100 })));
    const revisionsBefore = count(db, "SELECT count(*) AS n FROM case_revisions");
    // Start the edits once the worker is busy storing results.
    while (count(db, "SELECT count(*) AS n FROM trials WHERE status = 'done'") < 200) await new Promise((r) => setTimeout(r, 10));
    const doneBefore = count(db, "SELECT count(*) AS n FROM trials WHERE status = 'done'");
    const results = await Promise.all(threads.map((t) => t.go()));
    const doneAfter = count(db, "SELECT count(*) AS n FROM trials WHERE status = 'done'");
    editing = false;
    await worker.stop(1000);

    expect(results.flatMap((r) => r.failures)).toEqual([]);
    expect(workerErrors).toEqual([]);
    expect(results.map((r) => r.ok)).toEqual([100, 100, 100]);
    // 150 new cases (revision 1) and 150 second revisions.
    expect(count(db, "SELECT count(*) AS n FROM case_revisions") - revisionsBefore).toBe(300);
    expect(count(db, "SELECT count(*) AS n FROM cases WHERE revision_number = 2")).toBe(150);
    // The worker kept claiming and finishing trials while the edits ran.
    expect(doneAfter).toBeGreaterThan(doneBefore);
    db.$client.close();
  }, 120_000);
});
