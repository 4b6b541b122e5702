/**
 * The kill test on PostgreSQL (issue 20, "Tests and CI"): a 2,000-trial live bench, launched by the
 * New bench form's server function, run by 4 `npm run worker` processes against the scripted
 * OpenAI-compatible server on 127.0.0.1, while one worker after another is killed with SIGKILL and
 * started again, until the bench is finished. Then every trial has exactly one result (`done`, its
 * own case's answer), the model server saw each trial's request once or twice, and the bench is
 * `finished`.
 *
 * No assertion depends on when a kill lands. The rounds are paced by conditions, not by time: after
 * a kill, every trial the model server has seen but whose result is not stored (the dead worker's
 * trials among them) must be finished before the next kill, so no trial loses two runs to kills.
 * A short claim lease (BENCHWORK_WORKER_LEASE_MS) lets the dead worker's trials return to the queue soon.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { getBench, getBenchProgress } from "@/db/queries/benches";
import { closeStore, openPgStore } from "@/db/pg/store";
import { createTestDatabase, describePg, stopOwnCluster } from "@/db/pg/test-support/database";
import { launchFromRequest } from "./prepare";
import { stopJobQueue } from "./trial-jobs";
import { expectOneResultPerTrial, holdAndPickVictim } from "./test-support/kill-bench";
import { loadRequest, loadTrialRows, seedLoadSuite, startLoadModelServer, waitUntil, type LoadModelServer } from "./test-support/load-bench";
import { WorkerFleet } from "./test-support/worker-fleet";

const TRIALS = 2_000;
const WORKERS = 4;
/** Bench concurrency and the provider's limit: trials in flight over all workers. */
const CONCURRENCY = 16;
/** Model latency (ms): with the concurrency, the bench runs long enough (≥ 12.5 s) for several kills. */
const LATENCY_MS = 100;
/** Pause after a round before the next kill (ms): "every few seconds"; where it lands does not matter. */
const KILL_EVERY_MS = 3_000;
/**
 * The claim lease the workers get (ms): a dead worker's trials return to the queue this long after its
 * last heartbeat. Live workers beat every quarter of it on a timer of their own; 10 s leaves a loaded
 * CI machine's stalls far inside it (a live worker's claim that expires would cost its trial a delivery).
 */
const LEASE_MS = 10_000;
/** Cap on any one wait (ms): generous, only so a broken run ends with a message. */
const CAP_MS = 180_000;

describePg("kill -9 of worker processes on PostgreSQL", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Db;
  let model: LoadModelServer;
  let fleet: WorkerFleet | null = null;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = openPgStore(database.url, 4);
    model = await startLoadModelServer({ latencyMs: LATENCY_MS });
  }, 120_000);
  afterAll(async () => {
    await fleet?.stop();
    await model?.close();
    if (db) {
      await stopJobQueue(db); // the launch's pg-boss queue in this process
      await closeStore(db);
    }
    await database?.drop();
    await stopOwnCluster();
  }, 120_000);

  it("every trial of a 2,000-trial bench ends with exactly one result; each was requested at most twice", async () => {
    const suite = await seedLoadSuite(db, { cases: TRIALS, baseUrl: model.server.url });
    // As the New bench form's action launches (app/systems/[systemId]/benches/actions.ts).
    const { id: benchId } = await launchFromRequest(db, loadRequest(suite, { trials: TRIALS, concurrency: CONCURRENCY }), {
      env: { BENCHWORK_PROVIDER_CONCURRENCY: String(CONCURRENCY) },
    });
    const progress = async () => JSON.stringify(await getBenchProgress(db, benchId));

    fleet = new WorkerFleet({
      env: {
        BENCHWORK_DATABASE_URL: database.url,
        // A SQLite path of its own: nothing of this test may touch the checkout's data/ folder.
        BENCHWORK_DB: path.join(mkdtempSync(path.join(tmpdir(), "benchwork-pg-kill-")), "unused.db"),
        BENCHWORK_WORKER_SLOTS: String(CONCURRENCY),
        BENCHWORK_WORKER_LEASE_MS: String(LEASE_MS),
        BENCHWORK_PROVIDER_CONCURRENCY: String(CONCURRENCY),
        BENCHWORK_WORKER_POLL_MS: "100",
        BENCHWORK_TRIAL_THREADS: "0",
      },
    });
    await fleet.start(WORKERS);

    /** Per kill: the victim's pid and how many trials the model server had seen that were not finished. */
    const kills: { pid: number; unfinished: number }[] = [];
    const finished = async () => (await getBenchProgress(db, benchId))!.status === "finished";
    /** Case keys of the bench's trials that are not finished (queued or running). */
    const openKeys = async () =>
      new Set((await loadTrialRows(db, benchId)).filter((t) => t.status === "queued" || t.status === "running").map((t) => t.caseKey));

    // The first kill lands while answers are held: every trial in flight has its request at the
    // model server, so the victim dies holding trials whatever the machine's speed.
    // ≥ 200 requests seen: the bench is far from done.
    const { victim: first, victimKeys } = await holdAndPickVictim(db, {
      benchId,
      fleet,
      model,
      afterRequests: 200,
      concurrency: CONCURRENCY,
      timeoutMs: CAP_MS,
    });

    for (let round = 0, victim = first; ; round++, victim = (victim + 1) % WORKERS) {
      if (round > 0) {
        await new Promise((r) => setTimeout(r, KILL_EVERY_MS));
        if (await finished()) break;
      }
      const pid = await fleet.kill(victim);
      // Seen by the model server but not stored: the dead worker's trials and the live ones' in flight.
      const open = await openKeys();
      const unfinished = [...model.requestsByCase.keys()].filter((k) => open.has(k));
      kills.push({ pid, unfinished: unfinished.length });
      // Only now: while answers are held no trial can finish, so the first kill's count is exact.
      if (round === 0) model.server.release(); // the dead worker's held answers go to closed connections
      await fleet.restart(victim);
      await waitUntil(
        `the ${unfinished.length} trials requested before kill ${round + 1} to finish`,
        async () => {
          const still = await openKeys();
          return unfinished.every((k) => !still.has(k));
        },
        { timeoutMs: CAP_MS, intervalMs: 200, detail: progress },
      );
      if (await finished()) break;
    }
    await waitUntil("the bench to be finished", finished, { timeoutMs: CAP_MS, intervalMs: 200, detail: progress });
    await fleet.stop();

    console.log(
      `pg kill test: ${kills.length} kills (${kills.map((k) => k.unfinished).join(", ")} trials in flight or unstored at each), ` +
        `${[...model.requestsByCase.values()].filter((n) => n === 2).length} trials requested twice, ${fleet.starts} worker starts`,
    );
    await expectOneResultPerTrial(db, { benchId, model, total: TRIALS, victimKeys });
    // The stored results (finalized once every trial had ended) count every trial once.
    const stats = (await getBench(db, benchId))!.summary!.candidates.map((c) => [c.stats.trials, c.stats.checks.passed]);
    expect(stats).toEqual([[{ total: TRIALS, done: TRIALS, error: 0, skipped: 0, pending: 0 }, TRIALS]]);
    // The kills landed on a running bench: at least the first, whose victim held trials in flight.
    expect(kills.length).toBeGreaterThanOrEqual(1);
    expect(new Set(kills.map((k) => k.pid)).size).toBe(kills.length);
    expect(kills[0].unfinished).toBeGreaterThanOrEqual(CONCURRENCY);
  }, 900_000);
});
