/**
 * The pg-boss trial job queue against a real PostgreSQL (throwaway cluster): enqueue inside the
 * launch transaction, claim within the bench and provider limits, complete exactly once, expiry
 * and re-delivery, giving up, cancellation, and the provider limit held across two processes.
 */
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from "vitest";
import type { TrialResult } from "@/lib/bench/trial-jobs";
import { withPgTransaction, openPgPool } from "./client";
import { PgTrialJobQueue, laneName, trialJobId } from "./trial-job-queue";
import { FETCH_ORDER_INDEX } from "./fetch-order-index";
import { insertBench } from "./test-support/bench-rows";
import { createTestDatabase, describePg, stopOwnCluster } from "./test-support/database";
import { queueProcessTests } from "../test-support/queue-processes";
import { MIXED, VARIED, mixedCapSettings, runMixedPrices, runPriced, variedCapSettings, variedCost } from "../test-support/mixed-price-cap";

const T0 = 1_800_000_000_000;

function result(output: string): TrialResult {
  return {
    status: "done",
    startedAt: T0,
    finishedAt: T0 + 5,
    latencyMs: 5,
    inputTokens: 3,
    outputTokens: 4,
    costUsd: 0.001,
    finishReason: "stop",
    output,
    record: JSON.stringify({ messages: [] }),
    checks: [
      { kind: "contains", name: "has 4", verdict: "passed", message: "ok" } as never,
      { kind: "judge", name: "j", verdict: "failed", message: "no" } as never,
    ],
    error: null,
  };
}

describePg("PgTrialJobQueue (pg-boss)", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  let queue: PgTrialJobQueue;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = openPgPool(db.url, 2);
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
    await stopOwnCluster();
  });
  beforeEach(async () => {
    queue = new PgTrialJobQueue({ url: db.url, leaseMs: 1_000, maxDeliveries: 3 });
    await queue.start();
  }, 30_000);
  afterEach(async () => {
    await queue.stop();
    // Each test starts from an empty queue: earlier benches are cancelled and their claims dropped.
    await pool.query("UPDATE queue_benches SET cancelled_at = 0 WHERE cancelled_at IS NULL");
    await pool.query("DELETE FROM trial_claims");
    await pool.query("UPDATE trials SET status = 'skipped' WHERE status IN ('queued', 'running')");
  });

  /** A bench launched the way the app will: trial rows and their jobs in one transaction. */
  async function launch(trials: number, o: { concurrency: number; provider?: string; providerLimit?: number }) {
    const provider = o.provider ?? "scripted";
    return withPgTransaction(pool, async (client) => {
      const bench = await insertBench(client, trials);
      const spec = { benchId: bench.benchId, trials: bench.trialIds.map((trialId) => ({ trialId, providerKey: provider })) };
      await queue.prepare(spec);
      await queue.enqueue(client, { ...spec, concurrency: o.concurrency, providerLimits: { [provider]: o.providerLimit ?? 100 } });
      return bench;
    });
  }

  async function trialRows(benchId: number) {
    const r = await pool.query<{
      id: number;
      status: string;
      output: string | null;
      worker_id: string | null;
      passed_checks: number;
      failed_checks: number;
      attempts: number;
      error: string | null;
    }>("SELECT id, status, output, worker_id, passed_checks, failed_checks, attempts, error FROM trials WHERE bench_id = $1 ORDER BY id", [benchId]);
    return r.rows;
  }

  it("enqueues in the launch transaction, claims within the bench's concurrency, and stores each result once", async () => {
    const { benchId, trialIds } = await launch(5, { concurrency: 3 });
    const first = await queue.claim("w1", 10, T0);
    expect(first.map((c) => c.trialId)).toEqual(trialIds.slice(0, 3));
    expect(first.every((c) => c.delivery === 1 && c.expiresAt === T0 + 1_000)).toBe(true);
    expect((await trialRows(benchId)).map((t) => [t.status, t.worker_id])).toEqual([
      ["running", "w1"],
      ["running", "w1"],
      ["running", "w1"],
      ["queued", null],
      ["queued", null],
    ]);
    expect(await queue.claim("w2", 10, T0)).toEqual([]);

    expect(await queue.complete(first[0], result("answer 0"))).toBe(true);
    expect(await queue.complete(first[0], result("again"))).toBe(false);
    const next = await queue.claim("w2", 10, T0);
    expect(next.map((c) => c.trialId)).toEqual([trialIds[3]]);

    for (const c of [...first.slice(1), ...next]) expect(await queue.complete(c, result(`answer ${c.trialId}`))).toBe(true);
    const last = await queue.claim("w1", 10, T0);
    expect(last.map((c) => c.trialId)).toEqual([trialIds[4]]);
    expect(await queue.complete(last[0], result("answer last"))).toBe(true);
    expect(await queue.claim("w1", 10, T0)).toEqual([]);

    const rows = await trialRows(benchId);
    expect(rows.map((t) => t.status)).toEqual(["done", "done", "done", "done", "done"]);
    expect(rows[0]).toMatchObject({ output: "answer 0", passed_checks: 1, failed_checks: 1, worker_id: null, attempts: 1 });
    const bench = await pool.query("SELECT status FROM benches WHERE id = $1", [benchId]);
    expect(bench.rows[0].status).toBe("running");
  });

  it("leaves no job behind when the launch transaction rolls back, and enqueues a trial once when enqueued twice", async () => {
    await expect(
      withPgTransaction(pool, async (client) => {
        const bench = await insertBench(client, 2);
        const spec = { benchId: bench.benchId, trials: bench.trialIds.map((trialId) => ({ trialId, providerKey: "scripted" })) };
        await queue.prepare(spec);
        await queue.enqueue(client, { ...spec, concurrency: 5, providerLimits: { scripted: 5 } });
        throw new Error("launch failed");
      }),
    ).rejects.toThrow("launch failed");
    expect(await queue.claim("w1", 10, T0)).toEqual([]);

    const { benchId, trialIds } = await launch(2, { concurrency: 5 });
    await withPgTransaction(pool, (client) =>
      queue.enqueue(client, {
        benchId,
        concurrency: 5,
        providerLimits: { scripted: 100 },
        trials: trialIds.map((trialId) => ({ trialId, providerKey: "scripted" })),
      }),
    );
    const claims = await queue.claim("w1", 10, T0);
    expect(claims.map((c) => c.trialId)).toEqual(trialIds);
  });

  it("makes a lane not prepared (or retired since) inside the launch transaction as prepare() makes it, none when the launch rolls back, and refuses a limit below 1", async () => {
    const options = async (name: string) =>
      (
        await pool.query(
          "SELECT policy, retry_limit, retry_delay, retry_backoff, expire_seconds, retention_minutes, dead_letter FROM pgboss.queue WHERE name = $1",
          [name],
        )
      ).rows;
    const enqueueUnprepared = (client: pg.ClientBase, bench: { benchId: number; trialIds: number[] }) =>
      queue.enqueue(client, {
        benchId: bench.benchId,
        concurrency: 1,
        providerLimits: { unprepared: 1 },
        trials: [{ trialId: bench.trialIds[0], providerKey: "unprepared" }],
      });
    let rolledBack = "";
    await expect(
      withPgTransaction(pool, async (client) => {
        const bench = await insertBench(client, 1);
        rolledBack = laneName(bench.benchId, "unprepared");
        await enqueueUnprepared(client, bench);
        throw new Error("launch failed");
      }),
    ).rejects.toThrow("launch failed");
    expect(await options(rolledBack)).toEqual([]);
    const made = await withPgTransaction(pool, async (client) => {
      const bench = await insertBench(client, 1);
      await enqueueUnprepared(client, bench);
      return bench;
    });
    const prepared = await launch(1, { concurrency: 1, provider: "prepared" });
    const madeOptions = await options(laneName(made.benchId, "unprepared"));
    expect(madeOptions).toEqual([
      { policy: "standard", retry_limit: 2, retry_delay: 0, retry_backoff: null, expire_seconds: 82_800, retention_minutes: null, dead_letter: null },
    ]);
    expect(madeOptions).toEqual(await options(laneName(prepared.benchId, "prepared")));
    expect((await queue.claim("w1", 10, T0)).map((c) => c.trialId).sort()).toEqual([made.trialIds[0], prepared.trialIds[0]].sort());
    await expect(
      withPgTransaction(pool, async (client) => {
        const bench = await insertBench(client, 1);
        await queue.enqueue(client, {
          benchId: bench.benchId,
          concurrency: 0,
          providerLimits: { other: 1 },
          trials: [{ trialId: bench.trialIds[0], providerKey: "other" }],
        });
      }),
    ).rejects.toThrow(/bench \d+: concurrency must be a whole number ≥ 1 \(got 0\)/);
  });

  it("holds a provider's limit across benches", async () => {
    await launch(3, { concurrency: 3, provider: "shared", providerLimit: 2 });
    await launch(3, { concurrency: 3, provider: "shared", providerLimit: 2 });
    const claims = await queue.claim("w1", 10, T0);
    expect(claims).toHaveLength(2);
    expect(await queue.claim("w2", 10, T0)).toEqual([]);
  });

  it("re-delivers a trial whose claim expired, refuses the stale claim's result, and keeps the live one's", async () => {
    const { benchId, trialIds } = await launch(1, { concurrency: 1 });
    const [stale] = await queue.claim("w1", 1, T0);
    expect(await queue.heartbeat("w1", T0 + 900)).toBe(1);
    expect(await queue.expire(T0 + 1_500)).toEqual({ requeued: 0, gaveUp: 0 }); // the heartbeat moved it to T0 + 1,900
    expect(await queue.claim("w2", 1, T0 + 1_500)).toEqual([]); // still held: the bench's one slot is taken

    expect(await queue.expire(T0 + 1_900)).toEqual({ requeued: 1, gaveUp: 0 });
    expect((await trialRows(benchId))[0]).toMatchObject({ status: "queued", worker_id: null });
    expect(await queue.heartbeat("w1", T0 + 1_950)).toBe(0);

    const [live] = await queue.claim("w2", 1, T0 + 2_000);
    expect(live).toMatchObject({ trialId: trialIds[0], delivery: 2 });
    expect(live.token).not.toBe(stale.token);
    expect(await queue.complete(stale, result("from the presumed-dead worker"))).toBe(false);
    expect(await queue.complete(live, result("from the live worker"))).toBe(true);
    expect(await queue.complete(stale, result("late again"))).toBe(false);
    expect(await trialRows(benchId)).toEqual([expect.objectContaining({ status: "done", output: "from the live worker", attempts: 2 })]);
  });

  it("completes many claims in one transaction, storing only the current ones", async () => {
    const { benchId, trialIds } = await launch(3, { concurrency: 3 });
    const claims = await queue.claim("w1", 3, T0);
    const stale = { ...claims[1], token: "00000000-0000-4000-8000-000000000000" };
    const stored = await queue.completeMany([
      { claim: claims[0], result: result("first") },
      { claim: stale, result: result("forged") },
      { claim: claims[2], result: result("third") },
    ]);
    expect(stored.sort((a, b) => a - b)).toEqual([trialIds[0], trialIds[2]]);
    expect((await trialRows(benchId)).map((t) => [t.status, t.output])).toEqual([
      ["done", "first"],
      ["running", null],
      ["done", "third"],
    ]);
    expect(await queue.completeMany([{ claim: claims[0], result: result("again") }])).toEqual([]);
    expect(await queue.complete(claims[1], result("second"))).toBe(true);
  });

  it("does not hold the bench's or its candidates' spend rows while it stores and completes a batch, only in its last step (workers on many hosts share those rows)", async () => {
    const { benchId, trialIds } = await launch(2, { concurrency: 2 });
    const claims = await queue.claim("w1", 2, T0);
    // Another session holds one of the batch's pg-boss jobs: the batch stops at completing it.
    const blocker = await pool.connect();
    const probe = await pool.connect();
    try {
      await blocker.query("BEGIN");
      await blocker.query("SELECT 1 FROM pgboss.job WHERE id = $1 FOR UPDATE", [trialJobId(claims[0].trialId)]);
      const storing = queue.completeMany(claims.map((claim) => ({ claim, result: result("stored") })));
      // Until the batch's transaction waits on that job's row.
      for (;;) {
        const waiting = await probe.query(
          "SELECT 1 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE NOT l.granted AND a.datname = current_database()",
        );
        if (waiting.rowCount) break;
        await new Promise((r) => setImmediate(r));
      }
      // Meanwhile the spend rows are free: a claim on another host could read and a batch add to them.
      const rowLock = async (sql: string) => {
        await probe.query("BEGIN");
        try {
          return (await probe.query(sql, [benchId])).rowCount;
        } catch (e) {
          return (e as { code?: string }).code;
        } finally {
          await probe.query("ROLLBACK");
        }
      };
      expect(await rowLock("SELECT 1 FROM benches WHERE id = $1 FOR UPDATE NOWAIT")).toBe(1);
      expect(await rowLock("SELECT 1 FROM bench_candidates WHERE bench_id = $1 FOR UPDATE NOWAIT")).toBe(1);
      await blocker.query("ROLLBACK");
      expect((await storing).sort((a, b) => a - b)).toEqual(trialIds);
    } finally {
      await blocker.query("ROLLBACK").catch(() => undefined);
      blocker.release();
      probe.release();
    }
    expect(await pool.query('SELECT spent_usd AS "usd", spent_trials AS "n" FROM benches WHERE id = $1', [benchId]).then((r) => r.rows[0])).toEqual({
      usd: 0.002,
      n: 2,
    });
    expect(
      await pool
        .query('SELECT spent_usd AS "usd", spent_trials AS "n", max_trial_usd AS "max" FROM bench_candidates WHERE bench_id = $1', [benchId])
        .then((r) => r.rows),
    ).toEqual([{ usd: 0.002, n: 2, max: 0.001 }]);
  });

  it("stores a batch's results only from current claims when some of its claims expired (re-delivered or not yet), each field as given", async () => {
    const { benchId, trialIds } = await launch(3, { concurrency: 3 });
    const old = await queue.claim("w1", 3, T0);
    // w1 stops answering: its three claims expire; w2 gets one trial again before w1's batch arrives.
    expect(await queue.expire(T0 + 1_000)).toEqual({ requeued: 3, gaveUp: 0 });
    const [again] = await queue.claim("w2", 1, T0 + 1_100);
    expect(again).toMatchObject({ trialId: trialIds[0], delivery: 2 });
    // w1 comes back and claims one trial again (the second); the third waits in the queue.
    const live = await queue.claim("w1", 1, T0 + 1_200);
    expect(live.map((c) => c.trialId)).toEqual([trialIds[1]]);
    const full: TrialResult = { ...result("current"), status: "error", latencyMs: 7, inputTokens: 11, outputTokens: 13, costUsd: 0.25, error: "model said no" };
    const stored = await queue.completeMany([
      { claim: old[0], result: result("expired, re-delivered to w2") },
      { claim: old[1], result: result("expired, then claimed again by w1") },
      { claim: old[2], result: result("expired, queued again") },
      { claim: live[0], result: full },
    ]);
    expect(stored).toEqual([trialIds[1]]);
    const rows = await pool.query(
      `SELECT id, status, output, worker_id, started_at, finished_at, latency_ms, input_tokens, output_tokens, cost_usd, finish_reason,
              record, checks, passed_checks, failed_checks, unscored_checks, error_checks, error, attempts
       FROM trials WHERE bench_id = $1 ORDER BY id`,
      [benchId],
    );
    expect(rows.rows.map((t: { status: string; worker_id: string | null }) => [t.status, t.worker_id])).toEqual([
      ["running", "w2"],
      ["error", null],
      ["queued", null],
    ]);
    expect(rows.rows[1]).toEqual({
      id: trialIds[1],
      status: "error",
      output: "current",
      worker_id: null,
      started_at: String(T0),
      finished_at: String(T0 + 5),
      latency_ms: 7,
      input_tokens: 11,
      output_tokens: 13,
      cost_usd: 0.25,
      finish_reason: "stop",
      record: { messages: [] },
      checks: full.checks,
      passed_checks: 1,
      failed_checks: 1,
      unscored_checks: 0,
      error_checks: 0,
      error: "model said no",
      attempts: 2,
    });
    // Only the stored result spent (an error answered nothing); only its job completed: the first is
    // active under w2's claim, the third waits for its retry.
    expect(await spentOf(benchId)).toEqual({ spentUsd: 0.25, spentTrials: 0 });
    const jobs = await pool.query<{ state: string; n: number }>(
      "SELECT state::text, count(*)::int AS n FROM pgboss.job WHERE data->>'benchId' = $1::text GROUP BY state ORDER BY state::text",
      [benchId],
    );
    expect(jobs.rows).toEqual([
      { state: "active", n: 1 },
      { state: "completed", n: 1 },
      { state: "retry", n: 1 },
    ]);
    expect(await queue.complete(again, result("w2's answer"))).toBe(true);
    const [third] = await queue.claim("w1", 1, T0 + 1_300);
    expect(third).toMatchObject({ trialId: trialIds[2], delivery: 2 });
    expect(await queue.complete(third, result("w1's answer"))).toBe(true);
    expect((await trialRows(benchId)).map((t) => t.output)).toEqual(["w2's answer", "current", "w1's answer"]);
  });

  it("skips a lane whose bench or provider another claimer is serving, instead of waiting behind it, and claims it once free", async () => {
    const { benchId, trialIds } = await launch(4, { concurrency: 4, provider: "busy" });
    // Another claimer in the middle of its claim: it holds the bench's lock, then the provider's.
    for (const lock of [`benchwork:bench:${benchId}`, "benchwork:provider:busy"]) {
      const other = await pool.connect();
      try {
        await other.query("BEGIN");
        await other.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [lock]);
        expect(await queue.claim("w1", 4, T0)).toEqual([]);
        // The worker hears why it got nothing: it claims again soon instead of at its next poll.
        expect(queue.lastClaimLockedOut).toBe(true);
        await other.query("COMMIT");
      } finally {
        other.release();
      }
    }
    expect((await queue.claim("w1", 4, T0)).map((c) => c.trialId)).toEqual(trialIds);
    expect(queue.lastClaimLockedOut).toBe(false);
  });

  it("stores a batch and claims the slots it freed in the same transaction, in fewer round trips than the two calls", async () => {
    const { benchId, trialIds } = await launch(5, { concurrency: 2 });
    const first = await queue.claim("w1", 10, T0);
    const sent = vi.spyOn(pg.Client.prototype, "query");
    try {
      const r = await queue.completeAndClaim(
        first.map((claim) => ({ claim, result: result(`answer ${claim.trialId}`) })),
        "w1",
        10,
        T0 + 1,
      );
      // BEGIN, the results, pg-boss complete, the lanes, locks, limits, pg-boss fetch, the claim rows,
      // COMMIT (with the spend): 9, where completeMany then claim take 4 + 7 and a commit between.
      expect(sent.mock.calls.length).toBeLessThanOrEqual(9);
      expect(r.stored).toEqual(trialIds.slice(0, 2));
      expect(r.claims.map((c) => [c.trialId, c.benchId, c.delivery, c.expiresAt])).toEqual([
        [trialIds[2], benchId, 1, T0 + 1 + 1_000],
        [trialIds[3], benchId, 1, T0 + 1 + 1_000],
      ]);
      // The claimed trials' rows come with the claim (what db/queries/trial-jobs.ts claimedTrialRows reads).
      const expected = await pool.query(
        `SELECT t.id, t.bench_id AS "benchId", t.candidate_id AS "candidateId", t.bench_case_id AS "benchCaseId",
                bc.case_revision_id AS "caseRevisionId", t."repeat", t.attempts
         FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id WHERE t.id = ANY($1::int[]) ORDER BY t.id`,
        [trialIds.slice(2, 4)],
      );
      expect(expected.rows).toHaveLength(2);
      expect(r.trials).toEqual(expected.rows);
    } finally {
      sent.mockRestore();
    }
    expect((await trialRows(benchId)).map((t) => [t.status, t.output, t.worker_id])).toEqual([
      ["done", `answer ${trialIds[0]}`, null],
      ["done", `answer ${trialIds[1]}`, null],
      ["running", null, "w1"],
      ["running", null, "w1"],
      ["queued", null, null],
    ]);
    // A stale claim's result is refused as by completeMany; with max 0 nothing is claimed.
    const again = await queue.completeAndClaim([{ claim: first[0], result: result("again") }], "w1", 0, T0 + 2);
    expect(again).toEqual({ stored: [], claims: [], trials: [] });
    expect((await trialRows(benchId))[0].output).toBe(`answer ${trialIds[0]}`);
  });

  it("counts what the batch it stores spent in the claim made with it: the spend cap holds", async () => {
    const { benchId, trialIds } = await launch(6, { concurrency: 10 });
    await capBench(benchId, 0.01, 0.004);
    const first = await queue.claim("w1", 10, T0);
    expect(first.map((c) => c.trialId)).toEqual(trialIds.slice(0, 2));
    // $0.008 spent by the batch (added at its commit) + $0.004 would pass the cap: nothing starts.
    const r = await queue.completeAndClaim(
      first.map((claim) => ({ claim, result: costing(0.004) })),
      "w1",
      10,
      T0 + 1,
    );
    expect(r).toEqual({ stored: trialIds.slice(0, 2), claims: [], trials: [] });
    expect(await spentOf(benchId)).toEqual({ spentUsd: 0.008, spentTrials: 2 });
    expect((await trialRows(benchId)).map((t) => t.status)).toEqual(["done", "done", "skipped", "skipped", "skipped", "skipped"]);
  });

  it("expires a dead worker's claims before the claim it makes with a store, and claims their trials again", async () => {
    const { benchId, trialIds } = await launch(3, { concurrency: 2 });
    const mine = await queue.claim("w1", 1, T0);
    const dead = await queue.claim("dead", 1, T0);
    expect([mine[0].trialId, dead[0].trialId]).toEqual(trialIds.slice(0, 2));
    // w1 stores after the dead worker's lease (1 s) ran out (its own beaten at +500 ms): both slots are free for its claim.
    await queue.heartbeat("w1", T0 + 500);
    const r = await queue.completeAndClaim([{ claim: mine[0], result: result("mine") }], "w1", 10, T0 + 1_000);
    expect(r.stored).toEqual([trialIds[0]]);
    expect(r.claims.map((c) => [c.trialId, c.delivery]).sort((a, b) => a[0] - b[0])).toEqual([
      [trialIds[1], 2],
      [trialIds[2], 1],
    ]);
    expect(r.trials.map((t) => t.id).sort((a, b) => a - b)).toEqual(trialIds.slice(1, 3));
    expect((await trialRows(benchId)).map((t) => [t.status, t.worker_id])).toEqual([
      ["done", null],
      ["running", "w1"],
      ["running", "w1"],
    ]);
  });

  it("completes the stored trials' jobs in the store's own transaction: a store that rolls back leaves them to its claim, then to the expiry (re-delivered, not given up)", async () => {
    const { benchId, trialIds } = await launch(2, { concurrency: 1 });
    const [claim] = await queue.claim("w1", 1, T0);
    const jobState = async () =>
      (await pool.query<{ state: string }>("SELECT state FROM pgboss.job WHERE id = $1", [trialJobId(claim.trialId)])).rows[0]?.state;
    // The claim made with the store fails after the results went in (white-box: pg-boss's fetch),
    // as a deadlock abort would: the whole transaction rolls back, the job's completion with it.
    const boss = (queue as unknown as { boss: { fetch: (...a: unknown[]) => Promise<unknown> } }).boss;
    const fetch = vi.spyOn(boss, "fetch").mockRejectedValueOnce(new Error("deadlock detected"));
    try {
      await expect(queue.completeAndClaim([{ claim, result: result("lost") }], "w1", 1, T0 + 1)).rejects.toThrow("deadlock detected");
    } finally {
      fetch.mockRestore();
    }
    expect(await jobState()).toBe("active");
    expect((await trialRows(benchId)).map((t) => t.status)).toEqual(["running", "queued"]);
    // The worker that held the claim died before storing again: its trial goes back to the queue.
    expect(await queue.expire(T0 + 1_000)).toEqual({ requeued: 1, gaveUp: 0 });
    const [again] = await queue.claim("w2", 1, T0 + 2_000);
    expect([again.trialId, again.delivery]).toEqual([trialIds[0], 2]);
    expect(await queue.complete(again, result("stored once"))).toBe(true);
    expect(await jobState()).toBe("completed");
    expect((await trialRows(benchId))[0]).toMatchObject({ status: "done", output: "stored once", attempts: 2 });
  });

  it("fetches a lane's next jobs through an index in pg-boss's order, not by sorting the lane's whole backlog (5,000 queued trials)", async () => {
    // pg-boss 10's fetch orders a lane's queued jobs by (priority desc, created_on, id); its own
    // index (name, start_after) cannot give that order, so every claim read and sorted all of the
    // lane's queued jobs: ~5 ms at 10,000 and ~20 ms at 20,000 queued, on every store of a bench.
    await launch(5_000, { concurrency: 10 });
    await pool.query("ANALYZE pgboss.job");
    const sent = vi.spyOn(pg.Client.prototype, "query");
    let fetchSql: { text: string; values: unknown[] } | undefined;
    try {
      expect(await queue.claim("w1", 10, T0)).toHaveLength(10);
      for (const [text, values] of sent.mock.calls as unknown as [unknown, unknown][])
        if (typeof text === "string" && /FOR UPDATE SKIP LOCKED/.test(text) && text.includes("pgboss.job")) fetchSql = { text, values: values as unknown[] };
    } finally {
      sent.mockRestore();
    }
    expect(fetchSql, "pg-boss's fetch statement was not seen").toBeDefined();
    const plan = (await pool.query<{ "QUERY PLAN": string }>(`EXPLAIN ${fetchSql!.text}`, fetchSql!.values)).rows.map((r) => r["QUERY PLAN"]).join("\n");
    expect(plan).not.toMatch(/Sort Key:[^\n]*priority/);
    // The lane's copy of the index (named by PostgreSQL after its columns) gives the order.
    expect(plan).toMatch(/Index Scan using \S*name_priority_created_on_id/);
  });

  it("builds the fetch index when it is missing, once, while several workers start at the same time (each start succeeds)", async () => {
    await pool.query(`DROP INDEX IF EXISTS pgboss.${FETCH_ORDER_INDEX}`);
    const others = [1, 2, 3].map(() => new PgTrialJobQueue({ url: db.url }));
    const logged = vi.spyOn(console, "error");
    try {
      await Promise.all(others.map((q) => q.start()));
      expect(logged).not.toHaveBeenCalled();
    } finally {
      await Promise.all(others.map((q) => q.stop()));
      logged.mockRestore();
    }
    const { rows } = await pool.query<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE schemaname = 'pgboss' AND indexname = $1", [
      FETCH_ORDER_INDEX,
    ]);
    expect(rows[0]?.indexdef).toMatch(/\(name, priority DESC, created_on, id\) WHERE \(state < 'active'::pgboss\.job_state\)/);
  });

  it("starts without waiting for the job table while another worker's store holds it, once the fetch index exists", async () => {
    // A store in progress elsewhere: its transaction holds the job table as every INSERT/UPDATE does.
    // `CREATE INDEX IF NOT EXISTS` would wait here for that transaction (it locks before it looks).
    const other = await pool.connect();
    const logged = vi.spyOn(console, "error");
    try {
      await other.query("BEGIN");
      await other.query("LOCK TABLE pgboss.job IN ROW EXCLUSIVE MODE");
      const second = new PgTrialJobQueue({ url: db.url });
      await second.start();
      await second.stop();
      // Waiting, the start would have given up on the index after its lock timeout and said so.
      expect(logged).not.toHaveBeenCalled();
    } finally {
      await other.query("ROLLBACK");
      other.release();
      logged.mockRestore();
    }
  });

  it("claims and completes a batch in as many round trips for 38 trials as for 2", async () => {
    const { trialIds } = await launch(40, { concurrency: 40 });
    // Every statement the queue sends (pg-boss's too: they run on the queue's transaction client).
    const sent = vi.spyOn(pg.Client.prototype, "query");
    const trips = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
      sent.mockClear();
      const out = await fn();
      return [out, sent.mock.calls.length];
    };
    try {
      const [small, claimSmall] = await trips(() => queue.claim("w1", 2, T0));
      const [large, claimLarge] = await trips(() => queue.claim("w1", 38, T0));
      expect([small.length, large.length]).toEqual([2, 38]);
      const [doneSmall, completeSmall] = await trips(() => queue.completeMany(small.map((claim) => ({ claim, result: result("a") }))));
      const [doneLarge, completeLarge] = await trips(() => queue.completeMany(large.map((claim) => ({ claim, result: result("b") }))));
      expect([...doneSmall, ...doneLarge].sort((a, b) => a - b)).toEqual(trialIds);
      expect({ claimSmall, completeSmall }).toEqual({ claimSmall: claimLarge, completeSmall: completeLarge });
      // One lane: expiry check with the lanes, BEGIN, locks, limits, pg-boss fetch, the claim rows, COMMIT.
      expect(claimLarge).toBeLessThanOrEqual(7);
      // BEGIN, the results, pg-boss complete, COMMIT.
      expect(completeLarge).toBeLessThanOrEqual(4);
    } finally {
      sent.mockRestore();
    }
  });

  it("looks at a lane whose bench or provider is full in one round trip, and claims there again once a result frees a slot", async () => {
    const full = await launch(3, { concurrency: 2, provider: "narrow", providerLimit: 5 });
    const other = await launch(4, { concurrency: 4, provider: "narrow", providerLimit: 5 });
    const sent = vi.spyOn(pg.Client.prototype, "query");
    try {
      const first = await queue.claim("w1", 5, T0);
      // The first bench at its concurrency (2), the provider at its limit (2 + 3 = 5).
      expect(first.map((c) => c.trialId)).toEqual([...full.trialIds.slice(0, 2), ...other.trialIds.slice(0, 3)]);
      sent.mockClear();
      expect(await queue.claim("w2", 5, T0)).toEqual([]);
      // Only the lanes' query: no transaction, locks or counts for lanes that have no free slot.
      expect(sent.mock.calls.length).toBe(1);
      // An expired claim does not count as held: its lane is claimed again (after the expiry).
      await pool.query("UPDATE trial_claims SET expires_at = $1 WHERE trial_id = $2", [T0, other.trialIds[0]]);
      const again = await queue.claim("w2", 5, T0);
      expect(again).toHaveLength(1);
      expect([other.trialIds[0], other.trialIds[3]]).toContain(again[0].trialId);
      sent.mockClear();
      const stored = await queue.completeMany([{ claim: first[0], result: result("x") }]);
      expect(stored).toEqual([full.trialIds[0]]);
      expect((await queue.claim("w2", 5, T0)).map((c) => c.trialId)).toEqual([full.trialIds[2]]);
    } finally {
      sent.mockRestore();
    }
  });

  it("gives a trial up as error after its last delivery expires", async () => {
    const { benchId } = await launch(1, { concurrency: 1 });
    for (let d = 1; d <= 3; d++) {
      const [c] = await queue.claim("w", 1, T0 + d * 10_000);
      expect(c.delivery).toBe(d);
      expect(await queue.expire(T0 + d * 10_000 + 1_000)).toEqual(d < 3 ? { requeued: 1, gaveUp: 0 } : { requeued: 0, gaveUp: 1 });
    }
    expect(await queue.claim("w", 1, T0 + 50_000)).toEqual([]);
    expect((await trialRows(benchId))[0]).toMatchObject({ status: "error", attempts: 3, error: expect.stringContaining("stopped answering 3 times") });
  });

  it("holds the spend cap when a candidate's trial cost varies by case: a running trial counts at its candidate's dearest finished trial (issue #16 §4)", async () => {
    // The tester's bench: baseline $0.011 a trial, the candidate $0.017 or $0.225 by case (plan
    // figure $0.04), concurrency 8, a $2.00 cap. Counted at the candidate's mean per finished trial,
    // the cheap answers kept that under $0.225, so dear trials started past the cap.
    const { benchId, trialIds, positions } = await withPgTransaction(pool, async (client) => {
      const bench = await insertBench(client, VARIED.cases, 2);
      await client.query("UPDATE benches SET settings = $2::jsonb WHERE id = $1", [bench.benchId, variedCapSettings()]);
      const spec = { benchId: bench.benchId, trials: bench.trialIds.map((trialId) => ({ trialId, providerKey: "scripted" })) };
      await queue.prepare(spec);
      await queue.enqueue(client, { ...spec, concurrency: VARIED.concurrency, providerLimits: { scripted: 100 } });
      return bench;
    });
    const priced = new Map(trialIds.map((id, i) => [id, { position: positions[i], costUsd: variedCost(positions[i], Math.floor(i / 2)) }]));
    const run = await runPriced(queue, priced, VARIED.planUsd, { now: T0, capUsd: VARIED.capUsd, slow: (c) => c === VARIED.dearUsd });
    const spent = await spentOf(benchId);
    expect(spent.spentTrials).toBe(run.started);
    expect(spent.spentUsd).toBeCloseTo(run.startedUsd, 9);
    // Within the cap, but for what the last claim that started trials could not know (here: nothing, the first wave is long over).
    expect(spent.spentUsd).toBeLessThanOrEqual(run.boundUsd + 1e-9);
    expect(run.boundUsd).toBeCloseTo(VARIED.capUsd, 9);
    // The cap stopped it (not all trials ran) and not far below it: one more dear trial would not have fit.
    expect(run.started).toBeLessThan(trialIds.length);
    expect(spent.spentUsd + VARIED.dearUsd).toBeGreaterThan(VARIED.capUsd);
    // Each candidate's dearest finished trial is stored by the completion that adds its spend.
    const dearest = await pool.query<{ maxTrialUsd: number }>(
      'SELECT max_trial_usd AS "maxTrialUsd" FROM bench_candidates WHERE bench_id = $1 ORDER BY position',
      [benchId],
    );
    expect(dearest.rows.map((c) => c.maxTrialUsd)).toEqual([VARIED.baselineUsd, VARIED.dearUsd]);
  });

  it("cancels a bench: queued trials skipped, no new claims, claimed trials may still finish", async () => {
    const { benchId } = await launch(5, { concurrency: 2 });
    const held = await queue.claim("w1", 5, T0);
    expect(held).toHaveLength(2);
    expect(await queue.cancelBench(benchId, "cancelled by the user", T0 + 1)).toBe(3);
    expect(await queue.claim("w1", 5, T0 + 2)).toEqual([]);
    for (const c of held) expect(await queue.complete(c, result("finished anyway"))).toBe(true);
    expect(await queue.claim("w1", 5, T0 + 3)).toEqual([]);
    const rows = await trialRows(benchId);
    expect(rows.map((t) => t.status)).toEqual(["done", "done", "skipped", "skipped", "skipped"]);
    expect(rows[4].error).toBe("cancelled by the user");
  });

  /** Each of `benchId`'s lanes: its name, whether pg-boss still has its queue, and its job table (partition). */
  async function lanesOf(benchId: number) {
    const r = await pool.query<{ name: string; queued: boolean; partition: string | null }>(
      `SELECT l.name, q.name IS NOT NULL AS queued, to_regclass('pgboss.' || quote_ident(q.partition_name))::text AS partition
       FROM queue_lanes l LEFT JOIN pgboss.queue q ON q.name = l.name WHERE l.bench_id = $1 ORDER BY l.name`,
      [benchId],
    );
    return r.rows;
  }
  const bossQueues = async (names: string[]) =>
    (await pool.query<{ name: string }>("SELECT name FROM pgboss.queue WHERE name = ANY($1) ORDER BY name", [names])).rows.map((r) => r.name);
  /** Runs every claim of a launched bench to done and marks the bench ended as finalizing does. */
  async function runToEnd(benchId: number, status = "finished") {
    for (let c = await queue.claim("w", 10, T0); c.length; c = await queue.claim("w", 10, T0)) for (const x of c) await queue.complete(x, result("done"));
    await pool.query("UPDATE benches SET status = $2 WHERE id = $1", [benchId, status]);
  }

  // pg-boss 10 makes each queue a partition of its job table (a table and 7 indexes). One lane per
  // bench × provider, never dropped, piled up: with 2,000 lanes its maintenance took 637 ms and
  // 16,000 locks, with 4,000 it failed with "out of shared memory" (bench/pg-lanes.ts).
  it("retires the lanes of ended benches (pg-boss's queue and its table dropped) and keeps those of open benches", async () => {
    const ended = await launch(2, { concurrency: 2, provider: "retire-a" });
    await runToEnd(ended.benchId);
    const open = await launch(2, { concurrency: 2, provider: "retire-b" });
    const [endedLane] = await lanesOf(ended.benchId);
    expect(endedLane).toMatchObject({ queued: true, partition: expect.stringMatching(/^pgboss\./) });
    const [openLane] = await lanesOf(open.benchId);

    expect(await queue.retireEndedLanes()).toEqual({ retired: 1, more: false, busy: false });
    expect(await lanesOf(ended.benchId)).toEqual([]);
    expect(await bossQueues([endedLane.name, openLane.name])).toEqual([openLane.name]);
    expect((await pool.query("SELECT to_regclass($1) AS t", [endedLane.partition])).rows[0].t).toBeNull();
    // The open bench runs on.
    expect((await queue.claim("w", 10, T0)).map((c) => c.trialId)).toEqual(open.trialIds);
    expect(await queue.retireEndedLanes()).toEqual({ retired: 0, more: false, busy: false });
  });

  it("retires at most the asked number of lanes a call and says more are left", async () => {
    const benches = [];
    for (const p of ["retire-c", "retire-d", "retire-e"]) {
      const b = await launch(1, { concurrency: 1, provider: p });
      await runToEnd(b.benchId, p === "retire-d" ? "cancelled" : "finished");
      benches.push(b.benchId);
    }
    expect(await queue.retireEndedLanes(2)).toEqual({ retired: 2, more: true, busy: false });
    expect(await queue.retireEndedLanes(2)).toEqual({ retired: 1, more: false, busy: false });
    for (const id of benches) expect(await lanesOf(id)).toEqual([]);
  });

  it("keeps an ended bench's lane while one of its trials is still claimed", async () => {
    const { benchId } = await launch(1, { concurrency: 1, provider: "retire-f" });
    const [held] = await queue.claim("w", 1, T0);
    await pool.query("UPDATE benches SET status = 'cancelled' WHERE id = $1", [benchId]);
    expect(await queue.retireEndedLanes()).toEqual({ retired: 0, more: false, busy: false });
    expect(await queue.complete(held, result("late"))).toBe(true);
    expect(await queue.retireEndedLanes()).toEqual({ retired: 1, more: false, busy: false });
  });

  it("gives a retirement up within its lock timeout while another session holds a lock its detach needs, and retires once it is free", async () => {
    const { benchId } = await launch(1, { concurrency: 1, provider: "retire-g" });
    await runToEnd(benchId);
    const other = await pool.connect();
    try {
      await other.query("BEGIN");
      await other.query("LOCK TABLE pgboss.job IN SHARE UPDATE EXCLUSIVE MODE"); // as a lane being made, or a vacuum, holds it
      expect(await queue.retireEndedLanes()).toEqual({ retired: 0, more: false, busy: true });
    } finally {
      await other.query("ROLLBACK");
      other.release();
    }
    expect(await lanesOf(benchId)).toHaveLength(1);
    expect(await queue.retireEndedLanes()).toEqual({ retired: 1, more: false, busy: false });
  });

  it("does not hold up a store of another lane while it retires one (a plain DROP locked the whole job table)", async () => {
    const { benchId } = await launch(1, { concurrency: 1, provider: "retire-j" });
    await runToEnd(benchId);
    const open = await launch(1, { concurrency: 1, provider: "retire-k" });
    const busyElsewhere = await launch(1, { concurrency: 1, provider: "retire-k2" });
    const [openLane] = await lanesOf(open.benchId);
    const [busyLane] = await lanesOf(busyElsewhere.benchId);
    // A store in progress on another lane: its transaction holds the job table, and the detach's
    // second step waits for it to end.
    // Connections of their own: the test's pool (2) stays free for its looks.
    const longStore = new pg.Client({ connectionString: db.url });
    const store = new pg.Client({ connectionString: db.url });
    await longStore.connect();
    await store.connect();
    try {
      await longStore.query("BEGIN");
      await longStore.query("UPDATE pgboss.job SET priority = priority WHERE name = $1", [busyLane.name]);
      let settled = false;
      const retiring = queue.retireEndedLanes().finally(() => (settled = true));
      // Until the retirement is seen waiting (or has ended), then a store of the open lane: it must not wait.
      for (;;) {
        const w = await pool.query("SELECT 1 FROM pg_stat_activity WHERE application_name = 'benchwork-lane-retirement' AND wait_event_type = 'Lock'");
        if (w.rowCount || settled) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      await store.query("SET statement_timeout = '10s'"); // fails the test instead of hanging it
      await store.query("BEGIN");
      await store.query("UPDATE pgboss.job SET priority = priority WHERE name = $1", [openLane.name]);
      await store.query("COMMIT");
      await longStore.query("COMMIT");
      const first = await retiring;
      // The detach's second step may run past the lock timeout waiting for the long store: it is
      // then left pending, and the next call finishes it.
      if (first.retired === 0) {
        expect(first).toEqual({ retired: 0, more: false, busy: true });
        expect(await queue.retireEndedLanes()).toEqual({ retired: 1, more: false, busy: false });
      } else expect(first).toEqual({ retired: 1, more: false, busy: false });
    } finally {
      await longStore.end();
      await store.end();
    }
    expect(await lanesOf(benchId)).toEqual([]);
    expect((await queue.claim("w", 2, T0)).map((c) => c.trialId).sort()).toEqual([...open.trialIds, ...busyElsewhere.trialIds].sort());
  });

  it("finishes a detach a killed retirement left pending, then drops the lane", async () => {
    const { benchId } = await launch(1, { concurrency: 1, provider: "retire-l" });
    await runToEnd(benchId);
    const [lane] = await lanesOf(benchId);
    // What a retirement leaves when its detach's second step fails: the partition marked pending.
    const other = await pool.connect();
    const detach = await pool.connect();
    try {
      await other.query("BEGIN");
      await other.query("SELECT count(*) FROM pgboss.job WHERE name = $1", [lane.name]);
      await detach.query("SET lock_timeout = '100ms'");
      await expect(detach.query(`ALTER TABLE pgboss.job DETACH PARTITION ${lane.partition} CONCURRENTLY`)).rejects.toThrow(/lock timeout/);
    } finally {
      await other.query("ROLLBACK");
      other.release();
      detach.release(true);
    }
    const pending = await pool.query("SELECT inhdetachpending AS p FROM pg_inherits WHERE inhrelid = $1::regclass", [lane.partition]);
    expect(pending.rows).toEqual([{ p: true }]);
    expect(await queue.retireEndedLanes()).toEqual({ retired: 1, more: false, busy: false });
    expect(await lanesOf(benchId)).toEqual([]);
    expect((await pool.query("SELECT to_regclass($1) AS t", [lane.partition])).rows[0].t).toBeNull();
  });

  it("retires a lane whose pg-boss queue is already gone, and the other lanes with it", async () => {
    const gone = await launch(1, { concurrency: 1, provider: "retire-m" });
    await runToEnd(gone.benchId);
    const other = await launch(1, { concurrency: 1, provider: "retire-n" });
    await runToEnd(other.benchId);
    const [lane] = await lanesOf(gone.benchId);
    await pool.query(`DROP TABLE ${lane.partition}`);
    await pool.query("DELETE FROM pgboss.queue WHERE name = $1", [lane.name]);
    expect(await queue.retireEndedLanes()).toEqual({ retired: 2, more: false, busy: false });
    expect([...(await lanesOf(gone.benchId)), ...(await lanesOf(other.benchId))]).toEqual([]);
  });

  it("retires a lane a launch prepared but never enqueued (rolled back or refused) once it is an hour old, not before", async () => {
    const bench = await withPgTransaction(pool, (client) => insertBench(client, 1));
    const spec = { benchId: bench.benchId, trials: bench.trialIds.map((trialId) => ({ trialId, providerKey: "retire-o" })) };
    await queue.prepare(spec);
    const name = laneName(bench.benchId, "retire-o");
    expect(await queue.retireEndedLanes()).toEqual({ retired: 0, more: false, busy: false });
    await pool.query("UPDATE pgboss.queue SET created_on = now() - interval '61 minutes' WHERE name = $1", [name]);
    expect(await queue.retireEndedLanes()).toEqual({ retired: 1, more: false, busy: false });
    expect(await bossQueues([name])).toEqual([]);
  });

  // A tester's reruns left one pg-boss queue per provider with no queued trial (prepare makes a lane
  // per candidate, enqueue registers only those it fills): once their bench has ended they need not
  // wait the hour a launch still in flight (no bench row yet) is given.
  it("retires at once a lane a rerun of an ended bench prepared but did not fill, and waits the hour for one whose bench is not stored yet", async () => {
    const { benchId, trialIds } = await launch(1, { concurrency: 1, provider: "retire-p" });
    await runToEnd(benchId);
    await queue.prepare({ benchId, trials: [{ trialId: trialIds[0], providerKey: "retire-q" }] });
    const unfilled = laneName(benchId, "retire-q");
    const reserved = Number((await pool.query<{ id: string }>("SELECT nextval(pg_get_serial_sequence('benches', 'id')) AS id")).rows[0].id);
    await queue.prepare({ benchId: reserved, trials: [{ trialId: 0, providerKey: "retire-q" }] });
    const inFlight = laneName(reserved, "retire-q");

    expect(await queue.retireEndedLanes()).toEqual({ retired: 2, more: false, busy: false });
    expect(await bossQueues([laneName(benchId, "retire-p"), unfilled, inFlight])).toEqual([inFlight]);
    await pool.query("UPDATE pgboss.queue SET created_on = now() - interval '61 minutes' WHERE name = $1", [inFlight]);
    expect(await queue.retireEndedLanes()).toEqual({ retired: 1, more: false, busy: false });
  });

  it("makes lanes of benches launched at the same moment without a deadlock", async () => {
    // Each pg-boss create_queue inserts its queue row, then locks the queue table for its table's
    // foreign key: two at once deadlocked (11 of 30 launches in a reviewer's run).
    const benches = await withPgTransaction(pool, async (client) => {
      const out = [];
      for (let i = 0; i < 12; i++) out.push(await insertBench(client, 1));
      return out;
    });
    const others = [0, 1, 2].map(() => new PgTrialJobQueue({ url: db.url }));
    try {
      await Promise.all(others.map((q) => q.start()));
      await Promise.all(
        benches.map((b, i) => others[i % 3].prepare({ benchId: b.benchId, trials: [{ trialId: b.trialIds[0], providerKey: `at-once-${i}` }] })),
      );
    } finally {
      await Promise.all(others.map((q) => q.stop()));
    }
    expect(await bossQueues(benches.map((b, i) => laneName(b.benchId, `at-once-${i}`)))).toHaveLength(12);
  });

  it("enqueues a rerun whose lane was retired between its prepare and its launch transaction (the lane is made again inside it)", async () => {
    const { benchId, trialIds } = await launch(1, { concurrency: 1, provider: "retire-h" });
    await runToEnd(benchId);
    const spec = { benchId, trials: trialIds.map((trialId) => ({ trialId, providerKey: "retire-h" })) };
    await queue.prepare(spec); // the lane still exists: nothing to make
    expect(await queue.retireEndedLanes()).toEqual({ retired: 1, more: false, busy: false });
    await withPgTransaction(pool, async (client) => {
      await client.query("UPDATE benches SET status = 'queued' WHERE id = $1", [benchId]);
      await client.query("UPDATE trials SET status = 'queued', output = NULL WHERE bench_id = $1", [benchId]);
      await queue.enqueue(client, { ...spec, concurrency: 1, providerLimits: { "retire-h": 5 } });
    });
    expect(await lanesOf(benchId)).toMatchObject([{ queued: true, partition: expect.stringMatching(/^pgboss\./) }]);
    const [again] = await queue.claim("w", 1, T0);
    expect(again.trialId).toBe(trialIds[0]);
    expect(await queue.complete(again, result("rerun"))).toBe(true);
  });

  it("does not retire a bench's lane while a rerun's launch transaction holds the bench", async () => {
    const { benchId, trialIds } = await launch(1, { concurrency: 1, provider: "retire-i" });
    await runToEnd(benchId);
    const spec = { benchId, trials: trialIds.map((trialId) => ({ trialId, providerKey: "retire-i" })) };
    await queue.prepare(spec);
    const rerun = await pool.connect();
    try {
      await rerun.query("BEGIN");
      await rerun.query("UPDATE trials SET status = 'queued', output = NULL WHERE bench_id = $1", [benchId]);
      await queue.enqueue(rerun, { ...spec, concurrency: 1, providerLimits: { "retire-i": 5 } });
      // Not committed yet: the bench still reads as ended, but the rerun holds it (busy: try later).
      expect(await queue.retireEndedLanes()).toEqual({ retired: 0, more: false, busy: true });
      await rerun.query("UPDATE benches SET status = 'queued' WHERE id = $1", [benchId]);
      await rerun.query("COMMIT");
    } catch (e) {
      await rerun.query("ROLLBACK");
      throw e;
    } finally {
      rerun.release();
    }
    // Open again, with its lane and pg-boss queue (a real rerun adds new trials, whose jobs it claims).
    expect(await lanesOf(benchId)).toMatchObject([{ queued: true, partition: expect.stringMatching(/^pgboss\./) }]);
    expect(await queue.retireEndedLanes()).toEqual({ retired: 0, more: false, busy: false });
  });

  /** Gives a launched bench a spend cap (settings as a launch stores them). */
  async function capBench(benchId: number, usd: number, trialEstimateUsd: number) {
    await pool.query("UPDATE benches SET settings = $2::jsonb WHERE id = $1", [
      benchId,
      JSON.stringify({ concurrency: 10, spendCap: { usd, trialEstimateUsd } }),
    ]);
  }
  const costing = (usd: number): TrialResult => ({ ...result("paid"), costUsd: usd });
  const spentOf = async (benchId: number) =>
    (
      await pool.query<{ spentUsd: number; spentTrials: number }>('SELECT spent_usd AS "spentUsd", spent_trials AS "spentTrials" FROM benches WHERE id = $1', [
        benchId,
      ])
    ).rows[0];

  it("applies the spend cap in the claim and adds what stored results spent; once exhausted, queued trials are skipped and their jobs cancelled", async () => {
    const { benchId, trialIds } = await launch(6, { concurrency: 10 });
    await capBench(benchId, 0.01, 0.004);
    // $0.01 fits two trials estimated at $0.004 each, running or not.
    const first = await queue.claim("w1", 10, T0);
    expect(first.map((c) => c.trialId)).toEqual(trialIds.slice(0, 2));
    expect(await queue.claim("w2", 10, T0)).toEqual([]);
    // A stale claim's result spends nothing; each stored one adds its cost and one answered trial.
    expect(await queue.completeMany([{ claim: { ...first[0], token: "00000000-0000-4000-8000-000000000000" }, result: costing(1) }])).toEqual([]);
    expect(await queue.completeMany(first.map((claim) => ({ claim, result: costing(0.004) })))).toHaveLength(2);
    expect(await spentOf(benchId)).toEqual({ spentUsd: 0.008, spentTrials: 2 });
    // $0.008 spent + $0.004 would pass the cap: nothing starts again, the queued trials are skipped.
    expect(await queue.claim("w1", 10, T0 + 1)).toEqual([]);
    const rows = await trialRows(benchId);
    expect(rows.map((t) => t.status)).toEqual(["done", "done", "skipped", "skipped", "skipped", "skipped"]);
    expect(rows[2].error).toBe("budget: the spend cap of $0.01 would be passed ($0.0080 spent)");
    const jobs = await pool.query<{ state: string; n: number }>(
      "SELECT state, count(*)::int AS n FROM pgboss.job WHERE data->>'benchId' = $1::text GROUP BY state ORDER BY state::text",
      [benchId],
    );
    expect(jobs.rows).toEqual([
      { state: "cancelled", n: 4 },
      { state: "completed", n: 2 },
    ]);
  });

  it("never passes the spend cap with two claimers taking turns", async () => {
    const { benchId } = await launch(30, { concurrency: 10 });
    await capBench(benchId, 0.05, 0.004);
    const other = new PgTrialJobQueue({ url: db.url, leaseMs: 1_000 });
    await other.start();
    try {
      // Both claim before either completes, then complete: the running trials count at the estimate.
      for (let round = 0; round < 10; round++) {
        const a = await queue.claim("a", 4, T0 + round);
        const b = await other.claim("b", 4, T0 + round);
        await Promise.all([
          queue.completeMany(a.map((claim) => ({ claim, result: costing(0.004) }))),
          other.completeMany(b.map((claim) => ({ claim, result: costing(0.004) }))),
        ]);
      }
    } finally {
      await other.stop();
    }
    const spent = await spentOf(benchId);
    expect(spent.spentUsd).toBeLessThanOrEqual(0.05 + 1e-9);
    expect(spent.spentTrials).toBe(12);
    const rows = await trialRows(benchId);
    expect(rows.filter((t) => t.status === "done")).toHaveLength(12);
    expect(rows.filter((t) => t.status === "skipped")).toHaveLength(18);
  });

  it("holds the spend cap when candidates differ in price: each running trial counts at its own candidate's cost (issue #16 §4)", async () => {
    // The SQLite twin's scenario (db/test-support/mixed-price-cap.ts): $0.02 and $0.20 trials,
    // concurrency 10, a $2.00 cap, the dear trials answering 3 claims after they start.
    const { benchId, trialIds, positions } = await withPgTransaction(pool, async (client) => {
      const bench = await insertBench(client, MIXED.cases, 2);
      await client.query("UPDATE benches SET settings = $2::jsonb WHERE id = $1", [bench.benchId, mixedCapSettings()]);
      const spec = { benchId: bench.benchId, trials: bench.trialIds.map((trialId) => ({ trialId, providerKey: "scripted" })) };
      await queue.prepare(spec);
      await queue.enqueue(client, { ...spec, concurrency: MIXED.concurrency, providerLimits: { scripted: 100 } });
      return bench;
    });
    const run = await runMixedPrices(queue, new Map(trialIds.map((id, i) => [id, positions[i]])), MIXED.costs, { now: T0 });
    const spent = await spentOf(benchId);
    expect(spent.spentTrials).toBe(run.started);
    expect(spent.spentUsd).toBeCloseTo(run.startedOf[0] * MIXED.costs[0] + run.startedOf[1] * MIXED.costs[1], 9);
    expect(spent.spentUsd).toBeLessThanOrEqual(run.boundUsd + 1e-9);
    // It stopped at the cap, not before: one more dear trial would not have fit.
    expect(spent.spentUsd + MIXED.costs[1]).toBeGreaterThan(MIXED.capUsd);
    const rows = await trialRows(benchId);
    expect(rows.filter((t) => t.status === "done")).toHaveLength(run.started);
    const skipped = rows.filter((t) => t.status === "skipped");
    expect(skipped.length).toBe(trialIds.length - run.started);
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.every((t) => t.error?.startsWith("budget: the spend cap of $2.00 would be passed"))).toBe(true);
    // Each candidate's spend is stored beside the bench's, by the same completion.
    const perCandidate = await pool.query<{ spentUsd: number; spentTrials: number }>(
      'SELECT spent_usd AS "spentUsd", spent_trials AS "spentTrials" FROM bench_candidates WHERE bench_id = $1 ORDER BY position',
      [benchId],
    );
    expect(perCandidate.rows.map((c) => c.spentTrials)).toEqual(run.startedOf);
    expect(perCandidate.rows[1].spentUsd).toBeCloseTo(run.startedOf[1] * MIXED.costs[1], 9);
  });

  describePg("two claimer processes", () => {
    queueProcessTests({
      now: T0,
      target: () => ({ kind: "postgres", url: db.url }),
      launch: (count, o) => launch(count, o),
      trialRows,
      afterDrain: async (benchId) => {
        const jobs = await pool.query<{ state: string; n: number }>(
          "SELECT state, count(*)::int AS n FROM pgboss.job WHERE data->>'benchId' = $1::text GROUP BY state",
          [benchId],
        );
        expect(jobs.rows).toEqual([{ state: "completed", n: 40 }]);
      },
    });
  });
});
