/**
 * A job worker on PostgreSQL outlives its connections (issue 20, tester's report): when PostgreSQL
 * terminates every backend (a restart, a failover, `pg_terminate_backend`) while a bench runs, the
 * worker goes on and finishes the bench with exactly one result per trial. Before, a pg client
 * checked out of a pool (a claim's or a result's transaction) had no `error` listener, and pg's
 * `Unhandled 'error' event` ended the process (here: an uncaught error that fails the run).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import pg from "pg";
import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { describePg } from "@/db/pg/test-support/database";
import { addCases } from "@/db/queries/cases";
import { createModelConfig } from "@/db/queries/models";
import { createPrompt, createSystem } from "@/db/queries/systems";
import { getBench } from "@/db/queries/benches";
import { trials } from "@/db/schema";
import { emptyCaseContent } from "@/lib/library/case-content";
import { startScriptedModelServer, type ScriptedModelServer } from "@/e2e/fixtures/scripted-model-server";
import { launchFromRequest } from "./prepare";
import { pgBenchStore } from "./test-support/pg-bench-store";
import { startJobWorker } from "../job-worker";

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer({ models: ["scripted-1"], script: [{ name: "any", when: {}, reply: { text: "Scripted" } }] });
});
afterAll(async () => server.close());

/**
 * Ends every other connection to the test database, as `pg_ctl restart` or a failover would.
 * `midTransaction`: at a moment when the worker is inside a transaction (its client checked out of
 * its pool, mid-query): the trials table is locked first, and the backends are terminated once one of
 * the worker's transactions waits on that lock. Resolves with how many backends were terminated.
 */
async function terminateBackends(url: string, o: { midTransaction: boolean }): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query("BEGIN");
    if (o.midTransaction) {
      await admin.query("LOCK TABLE trials IN ACCESS EXCLUSIVE MODE");
      for (;;) {
        const waiting = await admin.query(
          "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'",
        );
        if (waiting.rowCount) break;
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    const r = await admin.query<{ n: string }>(
      "SELECT count(pg_terminate_backend(pid))::text AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    await admin.query("ROLLBACK");
    return Number(r.rows[0].n);
  } finally {
    await admin.end();
  }
}

/** Waits until bench `id` has ended (the test's timeout bounds the wait). */
async function waitEnded(db: Db, id: number) {
  for (;;) {
    const b = await getBench(db, id).catch(() => null);
    if (b && b.status !== "queued" && b.status !== "running") return b;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describePg("a job worker when PostgreSQL drops its connections", () => {
  const store = pgBenchStore(4);

  it("keeps running and finishes the bench with exactly one result per trial", async () => {
    const db = store.db();
    await createSystem(db, { id: "shop", name: "Shop" });
    const promptId = await createPrompt(db, { systemId: "shop", name: "agent", systemPrompt: "You help customers." });
    const keys = Array.from({ length: 12 }, (_, i) => `c${i}`);
    await addCases(
      db,
      keys.map((caseKey) => ({
        systemId: "shop",
        promptId,
        caseKey,
        source: "custom" as const,
        content: { ...emptyCaseContent(), input: `Say something (${caseKey})`, expected: "Scripted", evaluators: [{ kind: "contains" }] },
      })),
    );
    const model = await createModelConfig(db, { name: "scripted", provider: "openai-compatible", modelId: "scripted-1", baseUrl: server.url });
    // Two trials answer at once; the rest wait for the outage to have happened.
    server.hold({ answerFirst: 2 });
    const { id } = await launchFromRequest(
      db,
      {
        systemId: "shop",
        promptId,
        candidates: [{ kind: "model" as const, modelConfigId: model }],
        baseline: { kind: "none" as const },
        selection: { kind: "all" as const },
        budget: null,
        repeats: 1,
        concurrency: 4,
        timeoutSeconds: 60,
        maxSteps: 5,
        judgeModelConfigId: null,
        launchKey: "outage",
      },
      { env: {} },
    );
    const worker = await startJobWorker(db, { env: {}, pollMs: 20, retryBaseDelayMs: 5, leaseMs: 1_000, trialThreads: 1 });
    try {
      // Calls in flight and held: the worker holds claims, heartbeats and polls on its pools.
      await server.requests.until(() => server.requests.held >= 2);
      // Twice, with the worker reconnecting in between (it claims again): every pool's clients,
      // checked out mid-transaction, then idle or wherever they are, are dropped.
      expect(await terminateBackends(store.url(), { midTransaction: true })).toBeGreaterThan(0);
      await server.requests.until((n) => n >= 5);
      await terminateBackends(store.url(), { midTransaction: false });
      server.release();
      const bench = await waitEnded(db, id);
      expect(bench.status).toBe("finished");
    } finally {
      server.release();
      await worker.stop(1000);
    }
    const rows = await db
      .select({ id: trials.id, status: trials.status, checks: trials.checks })
      .from(trials)
      .where(eq(trials.benchId, id))
      .orderBy(asc(trials.id));
    expect(rows).toHaveLength(12);
    expect(rows.map((r) => r.status)).toEqual(Array(12).fill("done"));
    expect(rows.map((r) => JSON.parse(r.checks ?? "[]") as unknown[]).every((c) => c.length === 1)).toBe(true);
  }, 120_000);
});
