/**
 * Export JSON and `bench run --json-output` read the same on both stores (issue 20): JSON objects
 * stored on PostgreSQL keep their keys in the order they were written, as on SQLite (a `jsonb`
 * column re-sorts them: shorter keys first). The same judged bench over recorded answers runs on
 * each store; the exports are compared as text with ids and times masked.
 */
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { openMemoryDatabase } from "@/db/client";
import { describePg } from "@/db/pg/test-support/database";
import { addCriterion } from "@/db/queries/criteria";
import { createModelConfig } from "@/db/queries/models";
import { GET } from "@/app/api/benches/[benchId]/export/route";
import { startScriptedModelServer, type ScriptedModelServer } from "@/e2e/fixtures/scripted-model-server";
import { launchFromRequest } from "./prepare";
import { benchRunReport } from "./run-report";
import { recordedRequest, recordedSuite, waitEnded } from "./test-support/recorded-bench";
import { pgBenchStore } from "./test-support/pg-bench-store";
import { startBenchWorker } from "../worker";
import { startJobWorker } from "../job-worker";

/** Values that differ between two runs of the same bench (ids, times, durations): masked before comparing. */
const VOLATILE =
  /^(id|benchId|trialId|createdAt|startedAt|finishedAt|latencyMs|durationMs|caseRevision|caseRevisionId|revisionId|launchKey|baseUrl|p50|p95|mean)$/;

/** `text` re-serialized with volatile values masked; keys keep their order (JSON.parse keeps it). */
function masked(text: string): string {
  return JSON.stringify(
    JSON.parse(text, (k, v: unknown) => (VOLATILE.test(k) && v !== null && typeof v !== "object" ? "·" : v)),
    null,
    2,
  );
}

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer({
    script: [{ name: "judge", when: { systemIncludes: "You are an impartial evaluator" }, reply: { text: '{"verdict": "pass", "reason": "Polite enough."}' } }],
  });
});
afterAll(async () => server.close());
afterEach(() => {
  delete (globalThis as { benchworkDb?: unknown }).benchworkDb;
});

/** Runs the same judged recorded bench on `db` with `run` (the store's worker); returns its Export JSON and run report as text. */
async function exportsOf(db: Db, run: (id: number) => Promise<void>): Promise<{ exported: string; report: string }> {
  const promptId = await recordedSuite(db, [
    { key: "plain", expected: "30 days", answers: { col: "30 days", other: "60 days" } },
    { key: "wrong", expected: "yes", answers: { col: "no", other: "yes" }, evaluators: [{ kind: "contains", value: "y" }] },
  ]);
  await addCriterion(db, { systemId: "rec", promptId, fields: { rule: "Polite", passes: "polite", fails: "rude", priority: "secondary" } });
  const judge = await createModelConfig(db, {
    name: "judge",
    provider: "openai-compatible",
    modelId: "judge-1",
    baseUrl: server.url,
    inputPricePerMTok: 1,
    outputPricePerMTok: 2,
  });
  const { id } = await launchFromRequest(db, recordedRequest(promptId, ["col", "other"], { judgeModelConfigId: judge, spendCapUsd: 5 }), { env: {} });
  await run(id);
  expect((await waitEnded(db, id)).status).toBe("finished");
  (globalThis as { benchworkDb?: unknown }).benchworkDb = db; // the connection getDb() hands the route
  const res = await GET(new Request(`http://x/api/benches/${id}/export?format=json`), { params: Promise.resolve({ benchId: String(id) }) });
  expect(res.status).toBe(200);
  return { exported: masked(await res.text()), report: masked(JSON.stringify(await benchRunReport(db, id))) };
}

describePg("exports list JSON fields in the same order on PostgreSQL and SQLite", () => {
  const store = pgBenchStore(4);
  let pgDb: Db;
  beforeAll(() => {
    pgDb = store.db();
  });

  it("Export JSON and the run report are equal as text across the stores (ids and times masked)", async () => {
    const lite = openMemoryDatabase();
    const onSqlite = await exportsOf(lite, async (id) => {
      const worker = startBenchWorker(lite, { env: {}, pollMs: 20, trialThreads: 0 });
      await waitEnded(lite, id);
      await worker.stop(1000);
    });
    const onPg = await exportsOf(pgDb, async (id) => {
      const worker = await startJobWorker(pgDb, { env: {}, pollMs: 20, trialThreads: 1 });
      await waitEnded(pgDb, id);
      await worker.stop(1000);
    });
    // The bench really carries nested objects whose written order is not jsonb's (shorter keys first).
    expect(onSqlite.exported).toContain('"judge": {');
    expect(onSqlite.exported).toContain('"spendCap": {');
    expect(onPg.exported).toBe(onSqlite.exported);
    expect(onPg.report).toBe(onSqlite.report);
  }, 120_000);
});
