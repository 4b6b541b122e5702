/**
 * The kill test on SQLite (issue 20): a live bench launched as the New bench form launches it, run
 * by 3 `npm run worker` processes on one database file against the scripted OpenAI-compatible server,
 * while one worker holding trials is killed with SIGKILL and started again. The killed worker's
 * trials run again once their claims' lease has passed, and every trial ends with exactly one result
 * (`done`, its own case's answer); the model server saw each trial's request once or twice.
 *
 * Paced by conditions, not time: the kill lands while every slot's answer is held at the model
 * server, so the victim holds trials whatever the machine's speed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDatabase, openDatabase, type Db } from "@/db/client";
import { getBenchProgress } from "@/db/queries/benches";
import { trials } from "@/db/schema";
import { launchFromRequest } from "./prepare";
import { loadCaseText, loadRequest, loadTrialRows, seedLoadSuite, startLoadModelServer, waitUntil, type LoadModelServer } from "./test-support/load-bench";
import { WorkerFleet } from "./test-support/worker-fleet";

const TRIALS = 400;
const WORKERS = 3;
/** Bench concurrency and the provider's limit: trials in flight over all workers. */
const CONCURRENCY = 12;
const LATENCY_MS = 50;
/** The claim lease (ms): the killed worker's trials return to the queue this long after its last heartbeat. */
const LEASE_MS = 3_000;
/** Cap on any one wait (ms): only so a broken run ends with a message. */
const CAP_MS = 180_000;

describe("kill -9 of worker processes on SQLite", () => {
  let dir: string;
  let file: string;
  let db: Db;
  let model: LoadModelServer;
  let fleet: WorkerFleet | null = null;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "benchwork-sqlite-kill-"));
    file = path.join(dir, "kill.db");
    db = openDatabase(file);
    migrateDatabase(db);
    model = await startLoadModelServer({ latencyMs: LATENCY_MS });
  }, 120_000);
  afterAll(async () => {
    await fleet?.stop();
    await model?.close();
    db?.$client.close();
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it("a killed worker's trials run again after the lease; every trial ends with exactly one result", async () => {
    const suite = await seedLoadSuite(db, { cases: TRIALS, baseUrl: model.server.url });
    const { id: benchId } = await launchFromRequest(db, loadRequest(suite, { trials: TRIALS, concurrency: CONCURRENCY }), {
      env: { BENCHWORK_PROVIDER_CONCURRENCY: String(CONCURRENCY) },
    });
    const progress = async () => JSON.stringify(await getBenchProgress(db, benchId));
    fleet = new WorkerFleet({
      env: {
        BENCHWORK_DB: file,
        BENCHWORK_DATABASE_URL: "",
        BENCHWORK_WORKER_LEASE_MS: String(LEASE_MS),
        BENCHWORK_WORKER_POLL_MS: "50",
        BENCHWORK_TRIAL_THREADS: "0",
      },
    });
    await fleet.start(WORKERS);

    await waitUntil("40 requests at the model server", () => model.server.requests.count >= 40, { timeoutMs: CAP_MS, detail: progress });
    model.server.hold();
    await waitUntil("every slot of the bench to have its request held", () => model.server.requests.held >= CONCURRENCY, {
      timeoutMs: CAP_MS,
      detail: progress,
    });
    const running = await db
      .select({ workerId: trials.workerId, id: trials.id })
      .from(trials)
      .where(and(eq(trials.benchId, benchId), eq(trials.status, "running")));
    // A worker id is host:pid:random (server/worker.ts).
    const heldBy = (pid: number) => running.filter((r) => r.workerId?.split(":")[1] === String(pid)).map((r) => r.id);
    const victim = fleet.pids.findIndex((pid) => heldBy(pid).length > 0);
    expect(victim, `no worker process holds the running trials (${running.map((r) => r.workerId).join(", ")})`).not.toBe(-1);
    const victimIds = new Set(heldBy(fleet.pids[victim]));
    const victimKeys = (await loadTrialRows(db, benchId)).filter((t) => victimIds.has(t.id)).map((t) => t.caseKey);
    await fleet.kill(victim);
    model.server.release(); // the dead worker's held answers go to closed connections
    await fleet.restart(victim);

    await waitUntil("the bench to be finished", async () => (await getBenchProgress(db, benchId))!.status === "finished", {
      timeoutMs: CAP_MS,
      intervalMs: 200,
      detail: progress,
    });
    await fleet.stop();

    const rows = await loadTrialRows(db, benchId);
    const wrong = rows.filter((r) => r.status !== "done" || r.output !== `Answer to ${loadCaseText(r.caseKey)}` || r.passedChecks !== 1);
    expect(wrong.map((r) => ({ ...r, requests: model.requestsByCase.get(r.caseKey) ?? 0 }))).toEqual([]);
    const end = (await getBenchProgress(db, benchId))!;
    expect([end.status, end.total, end.done, end.error, end.skipped, end.queued, end.running]).toEqual(["finished", TRIALS, TRIALS, 0, 0, 0, 0]);
    expect(rows).toHaveLength(TRIALS);
    expect(new Set(rows.map((r) => r.caseKey)).size).toBe(TRIALS);
    const counts = rows.map((r) => model.requestsByCase.get(r.caseKey) ?? 0);
    expect(counts.filter((n) => n < 1 || n > 2)).toEqual([]);
    expect(model.otherRequests).toBe(0);
    // The victim's held trials ran again elsewhere: requested twice, stored once, on their second delivery.
    expect(victimKeys.length).toBeGreaterThanOrEqual(1);
    for (const key of victimKeys) expect(model.requestsByCase.get(key)).toBe(2);
    const byKey = new Map(rows.map((r) => [r.caseKey, r]));
    expect(victimKeys.map((k) => byKey.get(k)!.attempts)).toEqual(victimKeys.map(() => 2));
  }, 600_000);
});
