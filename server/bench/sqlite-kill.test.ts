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
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDatabase, openDatabase, type Db } from "@/db/client";
import { getBenchProgress } from "@/db/queries/benches";
import { launchFromRequest } from "./prepare";
import { expectOneResultPerTrial, holdAndPickVictim } from "./test-support/kill-bench";
import { loadRequest, seedLoadSuite, startLoadModelServer, waitUntil, type LoadModelServer } from "./test-support/load-bench";
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

    const { victim, victimKeys } = await holdAndPickVictim(db, { benchId, fleet, model, afterRequests: 40, concurrency: CONCURRENCY, timeoutMs: CAP_MS });
    await fleet.kill(victim);
    model.server.release(); // the dead worker's held answers go to closed connections
    await fleet.restart(victim);

    await waitUntil("the bench to be finished", async () => (await getBenchProgress(db, benchId))!.status === "finished", {
      timeoutMs: CAP_MS,
      intervalMs: 200,
      detail: progress,
    });
    await fleet.stop();

    const rows = await expectOneResultPerTrial(db, { benchId, model, total: TRIALS, victimKeys });
    // The victim's trials were stored on their second delivery.
    const byKey = new Map(rows.map((r) => [r.caseKey, r]));
    expect(victimKeys.map((k) => byKey.get(k)!.attempts)).toEqual(victimKeys.map(() => 2));
  }, 600_000);
});
