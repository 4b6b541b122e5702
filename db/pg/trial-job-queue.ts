/**
 * The trial job queue on PostgreSQL (implements lib/bench/trial-jobs.ts) with pg-boss 10.
 *
 * pg-boss stores and delivers the jobs (one per trial, at least once; `retryLimit` re-deliveries),
 * but it does not cap how many jobs of a group run at once across processes. So:
 * - each bench × provider pair is a pg-boss queue (a "lane"), so a claim can fetch exactly the jobs
 *   it is allowed to run;
 * - a claim runs in one transaction that takes two advisory locks (the bench's, then the
 *   provider's: always in that order, so claimers never deadlock), counts the current claims
 *   (`trial_claims`), fetches at most the free slots from the lane through pg-boss on the same
 *   transaction, and records the claims. Every process counts under the same locks, so the limits
 *   hold across processes and hosts;
 * - a claim carries a fresh token; `complete` deletes the claim row with that token and stores the
 *   result in the same transaction, so only the current claim's result is ever stored;
 * - a bench's spend cap is applied in the same claim, under the bench's lock (lib/bench/budget.ts),
 *   and `completeMany` adds what each stored result spent to the bench;
 * - leases are ours (pg-boss 10 has no heartbeat): `expire` deletes expired claims and fails their
 *   jobs through pg-boss, which re-queues them (`retry`) or, after the last delivery, fails them
 *   for good (the trial ends as `error`). pg-boss's own expiry is set far beyond any lease, so it
 *   never re-delivers a job behind our back; its supervisor (maintenance) runs only where asked
 *   (`supervise`: the job workers) and then only archives and deletes old jobs.
 */
import { createHash, randomUUID } from "node:crypto";
import PgBoss from "pg-boss";
import type pg from "pg";
import type { BenchJobs, TrialClaim, TrialJobQueue, TrialResult } from "@/lib/bench/trial-jobs";
import { countVerdicts } from "@/lib/bench/score";
import { budgetAllowance, budgetSkipReason, inFlightEstimate, outcomeSpend, type SpendCap } from "@/lib/bench/budget";
import { openPgPool, withPgTransaction } from "./client";

/** Options of {@link PgTrialJobQueue}. */
export interface PgTrialJobQueueOptions {
  /** postgres:// URL of the Benchwork database (migrated; pg-boss installs its schema `pgboss` at start). */
  url: string;
  /** How long a claim lasts without a heartbeat, in ms (default 60 s). */
  leaseMs?: number;
  /** Deliveries of a trial before it is given up as `error` (default 3). */
  maxDeliveries?: number;
  /** Connections of this process's pool (default 4; pg-boss keeps 2 more). */
  poolSize?: number;
  /**
   * Run pg-boss's maintenance from this instance (default false): it archives completed and
   * cancelled jobs after 12 h and deletes archived ones after 7 days, one process at a time (pg-boss
   * takes an advisory lock). Job workers turn it on; its job expiry (23 h) is far beyond our leases.
   */
  supervise?: boolean;
}

/** The data of a trial's pg-boss job. */
interface JobData {
  trialId: number;
  benchId: number;
  providerKey: string;
}

/** pg-boss's job expiry (its maximum is 24 h); our leases decide long before. */
const BOSS_EXPIRE_SECONDS = 23 * 60 * 60;

/** The pg-boss queue name of a bench's trials for one provider. */
export function laneName(benchId: number, providerKey: string): string {
  return `bw-trials-${benchId}-${createHash("sha256").update(providerKey).digest("hex").slice(0, 16)}`;
}

/** The job id of a trial: derived from the trial id, so enqueueing a trial twice inserts one job. */
export function trialJobId(trialId: number): string {
  return `00000000-0000-4000-8000-${trialId.toString(16).padStart(12, "0")}`;
}

/** pg-boss's `db` option: run its statements on our transaction's client. */
function onClient(client: pg.ClientBase): PgBoss.Db {
  return { executeSql: (text, values) => client.query(text, values) };
}

function assertLimit(value: number, what: string): void {
  if (!Number.isInteger(value) || value < 1) throw new Error(`${what} must be a whole number ≥ 1 (got ${value})`);
}

/** The PostgreSQL / pg-boss trial job queue. Call {@link start} before use and {@link stop} at the end. */
export class PgTrialJobQueue implements TrialJobQueue<pg.ClientBase> {
  readonly leaseMs: number;
  readonly maxDeliveries: number;
  private readonly pool: pg.Pool;
  private readonly boss: PgBoss;
  /** The last error pg-boss reported (it emits errors instead of throwing them). */
  lastBossError: Error | null = null;

  constructor(options: PgTrialJobQueueOptions) {
    this.leaseMs = options.leaseMs ?? 60_000;
    this.maxDeliveries = options.maxDeliveries ?? 3;
    assertLimit(this.leaseMs, "leaseMs");
    assertLimit(this.maxDeliveries, "maxDeliveries");
    this.pool = openPgPool(options.url, options.poolSize ?? 4);
    this.boss = new PgBoss({
      connectionString: options.url,
      max: 2,
      supervise: options.supervise ?? false,
      schedule: false,
      migrate: true,
      application_name: "benchwork-queue",
    });
    this.boss.on("error", (e) => (this.lastBossError = e));
  }

  /** Connects and installs (or upgrades) pg-boss's schema. */
  async start(): Promise<void> {
    await this.boss.start();
  }

  /** Closes both connection pools. */
  async stop(): Promise<void> {
    await this.boss.stop({ graceful: false, close: true, wait: true });
    await this.pool.end();
  }

  async prepare(bench: Pick<BenchJobs, "benchId" | "trials">): Promise<void> {
    for (const providerKey of new Set(bench.trials.map((t) => t.providerKey))) {
      const name = laneName(bench.benchId, providerKey);
      await this.boss.createQueue(name, { name, policy: "standard", retryLimit: this.maxDeliveries - 1, retryDelay: 0, expireInSeconds: BOSS_EXPIRE_SECONDS });
    }
  }

  async enqueue(tx: pg.ClientBase, bench: BenchJobs): Promise<number> {
    assertLimit(bench.concurrency, `bench ${bench.benchId}: concurrency`);
    const providers = new Set(bench.trials.map((t) => t.providerKey));
    for (const p of providers) {
      if (!(p in bench.providerLimits)) throw new Error(`bench ${bench.benchId}: no provider limit for "${p}"`);
      assertLimit(bench.providerLimits[p], `provider "${p}": limit`);
    }
    await tx.query(
      `INSERT INTO queue_benches (bench_id, concurrency) VALUES ($1, $2)
       ON CONFLICT (bench_id) DO UPDATE SET concurrency = excluded.concurrency, cancelled_at = NULL`,
      [bench.benchId, bench.concurrency],
    );
    for (const p of providers) {
      await tx.query(
        `INSERT INTO queue_providers (provider_key, concurrency) VALUES ($1, $2)
         ON CONFLICT (provider_key) DO UPDATE SET concurrency = excluded.concurrency`,
        [p, bench.providerLimits[p]],
      );
      const name = laneName(bench.benchId, p);
      if (!(await this.boss.getQueue(name)))
        throw new Error(`bench ${bench.benchId}: the queue for provider "${p}" was not prepared (call prepare() before the launch transaction)`);
      await tx.query("INSERT INTO queue_lanes (name, bench_id, provider_key) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING", [name, bench.benchId, p]);
    }
    const jobs: PgBoss.JobInsert<JobData>[] = bench.trials.map((t) => ({
      id: trialJobId(t.trialId),
      name: laneName(bench.benchId, t.providerKey),
      data: { trialId: t.trialId, benchId: bench.benchId, providerKey: t.providerKey },
    }));
    // pg-boss inserts a whole array in one statement; chunks keep each one a modest size.
    for (let i = 0; i < jobs.length; i += 5_000) await this.boss.insert(jobs.slice(i, i + 5_000), { db: onClient(tx) });
    return jobs.length;
  }

  async claim(workerId: string, max: number, now: number): Promise<TrialClaim[]> {
    await this.expire(now);
    const lanes = await this.pool.query<{ name: string; benchId: number; providerKey: string }>(
      `SELECT l.name, l.bench_id AS "benchId", l.provider_key AS "providerKey"
       FROM queue_lanes l JOIN queue_benches b ON b.bench_id = l.bench_id JOIN benches ON benches.id = l.bench_id
       WHERE b.cancelled_at IS NULL AND benches.status IN ('queued', 'running') ORDER BY l.bench_id, l.name`,
    );
    const out: TrialClaim[] = [];
    for (const lane of lanes.rows) {
      if (out.length >= max) break;
      out.push(...(await this.claimLane(lane, workerId, max - out.length, now)));
    }
    return out;
  }

  /** Claims up to `want` trials of one lane under its bench's and provider's locks. */
  private claimLane(lane: { name: string; benchId: number; providerKey: string }, workerId: string, want: number, now: number): Promise<TrialClaim[]> {
    return withPgTransaction(this.pool, async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended('benchwork:bench:' || $1::text, 0))", [lane.benchId]);
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended('benchwork:provider:' || $1::text, 0))", [lane.providerKey]);
      const { rows } = await client.query<{ cancelled: boolean; benchFree: number; providerFree: number }>(
        `SELECT b.cancelled_at IS NOT NULL AS cancelled,
                b.concurrency - (SELECT count(*) FROM trial_claims c WHERE c.bench_id = b.bench_id)::int AS "benchFree",
                p.concurrency - (SELECT count(*) FROM trial_claims c WHERE c.provider_key = p.provider_key)::int AS "providerFree"
         FROM queue_benches b, queue_providers p WHERE b.bench_id = $1 AND p.provider_key = $2`,
        [lane.benchId, lane.providerKey],
      );
      const row = rows[0];
      if (!row || row.cancelled) return [];
      let free = Math.min(want, row.benchFree, row.providerFree);
      if (free <= 0) return [];
      const allowed = await this.spendAllowance(client, lane.benchId, now);
      if (allowed === "exhausted") return [];
      free = Math.min(free, allowed);
      if (free <= 0) return [];
      const jobs = await this.boss.fetch<JobData>(lane.name, { batchSize: free, includeMetadata: true, ignoreStartAfter: true, db: onClient(client) });
      if (jobs.length === 0) return [];
      const ids = jobs.map((j) => j.data.trialId);
      const running = await client.query<{ id: number }>(
        "UPDATE trials SET status = 'running', worker_id = $1, started_at = $2 WHERE id = ANY($3::int[]) AND status = 'queued' RETURNING id",
        [workerId, now, ids],
      );
      const live = new Set(running.rows.map((r) => r.id));
      // A job whose trial is no longer queued has nothing to run: close it.
      const dead = jobs.filter((j) => !live.has(j.data.trialId)).map((j) => j.id);
      if (dead.length) await this.boss.complete(lane.name, dead, { db: onClient(client) });
      const claims: TrialClaim[] = [];
      for (const job of jobs) {
        if (!live.has(job.data.trialId)) continue;
        const claim: TrialClaim = {
          trialId: job.data.trialId,
          benchId: lane.benchId,
          providerKey: lane.providerKey,
          token: randomUUID(),
          delivery: job.retryCount + 1,
          expiresAt: now + this.leaseMs,
        };
        await client.query(
          `INSERT INTO trial_claims (trial_id, bench_id, provider_key, lane, job_id, worker_id, token, delivery, claimed_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [claim.trialId, claim.benchId, claim.providerKey, lane.name, job.id, workerId, claim.token, claim.delivery, now, claim.expiresAt],
        );
        claims.push(claim);
      }
      if (claims.length)
        await client.query("UPDATE benches SET status = 'running', started_at = coalesce(started_at, $1) WHERE id = $2 AND status = 'queued'", [
          now,
          lane.benchId,
        ]);
      return claims;
    });
  }

  /**
   * How many more trials of the bench may start under its spend cap (lib/bench/budget.ts), counted
   * under the bench's lock like SQLite's claim: what its stored results spent, plus its current
   * claims at the in-flight estimate. An exhausted cap skips the bench's queued trials (with the
   * budget reason) and cancels their jobs. Infinity without a cap.
   */
  private async spendAllowance(client: pg.ClientBase, benchId: number, now: number): Promise<number | "exhausted"> {
    const { rows } = await client.query<{ cap: SpendCap | null; spentUsd: number; spentTrials: number; running: number }>(
      `SELECT settings->'spendCap' AS cap, spent_usd AS "spentUsd", spent_trials AS "spentTrials",
              (SELECT count(*) FROM trial_claims c WHERE c.bench_id = benches.id)::int AS running
       FROM benches WHERE id = $1`,
      [benchId],
    );
    const b = rows[0];
    if (!b?.cap) return Infinity;
    const spent = { spentUsd: b.spentUsd, spentTrials: b.spentTrials };
    const a = budgetAllowance({
      capUsd: b.cap.usd,
      spentUsd: b.spentUsd,
      running: b.running,
      trialEstimateUsd: inFlightEstimate(b.cap.trialEstimateUsd, spent),
    });
    if (!a.exhausted) return a.startable;
    await this.skipQueued(client, benchId, budgetSkipReason(b.cap.usd, b.spentUsd), now);
    return "exhausted";
  }

  /** Marks the bench's queued trials `skipped` with `reason` and cancels their jobs. @returns how many */
  private async skipQueued(client: pg.ClientBase, benchId: number, reason: string, now: number): Promise<number> {
    const skipped = await client.query<{ id: number }>(
      "UPDATE trials SET status = 'skipped', error = $2, finished_at = $3 WHERE bench_id = $1 AND status = 'queued' RETURNING id",
      [benchId, reason, now],
    );
    const jobIds = skipped.rows.map((r) => trialJobId(r.id));
    if (jobIds.length) {
      const lanes = await client.query<{ name: string }>("SELECT name FROM queue_lanes WHERE bench_id = $1", [benchId]);
      for (const l of lanes.rows) await this.boss.cancel(l.name, jobIds, { db: onClient(client) });
    }
    return skipped.rowCount ?? 0;
  }

  async heartbeat(workerId: string, now: number): Promise<number> {
    const r = await this.pool.query("UPDATE trial_claims SET expires_at = $1 WHERE worker_id = $2 AND expires_at > $3", [now + this.leaseMs, workerId, now]);
    return r.rowCount ?? 0;
  }

  async expire(now: number): Promise<{ requeued: number; gaveUp: number }> {
    return withPgTransaction(this.pool, async (client) => {
      // DELETE … RETURNING: of two processes expiring at once, each claim goes to exactly one.
      const expired = await client.query<{ trialId: number; lane: string; jobId: string; delivery: number }>(
        `DELETE FROM trial_claims WHERE expires_at <= $1 RETURNING trial_id AS "trialId", lane, job_id AS "jobId", delivery`,
        [now],
      );
      let requeued = 0;
      let gaveUp = 0;
      for (const c of expired.rows) {
        await this.boss.fail(c.lane, c.jobId, { message: "claim expired" }, { db: onClient(client) });
        const job = await this.boss.getJobById(c.lane, c.jobId, { db: onClient(client), includeArchive: false });
        if (job?.state === "retry") {
          await client.query("UPDATE trials SET status = 'queued', worker_id = NULL, started_at = NULL WHERE id = $1 AND status = 'running'", [c.trialId]);
          requeued++;
        } else {
          await client.query(
            "UPDATE trials SET status = 'error', worker_id = NULL, finished_at = $2, attempts = $3, error = $4 WHERE id = $1 AND status = 'running'",
            [c.trialId, now, c.delivery, `the worker running this trial stopped answering ${c.delivery} times; giving up`],
          );
          gaveUp++;
        }
      }
      return { requeued, gaveUp };
    });
  }

  async complete(claim: TrialClaim, result: TrialResult): Promise<boolean> {
    return (await this.completeMany([{ claim, result }])).length === 1;
  }

  async completeMany(entries: { claim: TrialClaim; result: TrialResult }[]): Promise<number[]> {
    if (entries.length === 0) return [];
    return withPgTransaction(this.pool, async (client) => {
      // Only claims still current (same trial and token) are deleted, and only their results stored.
      const held = await client.query<{ trialId: number; lane: string; jobId: string; delivery: number }>(
        `DELETE FROM trial_claims c USING unnest($1::int[], $2::uuid[]) AS e(trial_id, token)
         WHERE c.trial_id = e.trial_id AND c.token = e.token
         RETURNING c.trial_id AS "trialId", c.lane, c.job_id AS "jobId", c.delivery`,
        [entries.map((e) => e.claim.trialId), entries.map((e) => e.claim.token)],
      );
      const byTrial = new Map(entries.map((e) => [e.claim.trialId, e.result]));
      const jobsByLane = new Map<string, string[]>();
      /** Per bench: what its stored results spent (USD) and how many answered, for its spend cap. */
      const spend = new Map<number, { usd: number; answered: number }>();
      for (const { trialId, lane, jobId, delivery } of held.rows) {
        const result = byTrial.get(trialId)!;
        const n = countVerdicts(result.checks ?? []);
        await client.query(
          `UPDATE trials SET status = $2, started_at = $3, finished_at = $4, latency_ms = $5, input_tokens = $6, output_tokens = $7, cost_usd = $8,
             finish_reason = $9, output = $10, record = $11::jsonb, checks = $12::jsonb, passed_checks = $13, failed_checks = $14, unscored_checks = $15,
             error_checks = $16, error = $17, worker_id = NULL, attempts = $18
           WHERE id = $1`,
          [
            trialId,
            result.status,
            result.startedAt,
            result.finishedAt,
            result.latencyMs,
            result.inputTokens,
            result.outputTokens,
            result.costUsd,
            result.finishReason,
            result.output,
            result.record,
            result.checks ? JSON.stringify(result.checks) : null,
            n.passed,
            n.failed,
            n.unscored,
            n.error,
            result.error,
            delivery,
          ],
        );
        jobsByLane.set(lane, [...(jobsByLane.get(lane) ?? []), jobId]);
        const benchId = entries.find((e) => e.claim.trialId === trialId)!.claim.benchId;
        const s = spend.get(benchId) ?? { usd: 0, answered: 0 };
        s.usd += outcomeSpend(result);
        s.answered += result.status === "done" ? 1 : 0;
        spend.set(benchId, s);
      }
      // As SQLite's complete: only stored results count; a finished answer counts even at $0 (the mean cost per trial).
      for (const [benchId, s] of spend)
        if (s.usd > 0 || s.answered > 0)
          await client.query("UPDATE benches SET spent_usd = spent_usd + $2, spent_trials = spent_trials + $3 WHERE id = $1", [benchId, s.usd, s.answered]);
      for (const [lane, ids] of jobsByLane) await this.boss.complete(lane, ids, { db: onClient(client) });
      return held.rows.map((r) => r.trialId);
    });
  }

  async cancelBench(benchId: number, reason: string, now: number): Promise<number> {
    return withPgTransaction(this.pool, async (client) => {
      // Under the bench's lock: no claim of this bench is between its check and its commit.
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended('benchwork:bench:' || $1::text, 0))", [benchId]);
      await client.query("UPDATE queue_benches SET cancelled_at = coalesce(cancelled_at, $2) WHERE bench_id = $1", [benchId, now]);
      return this.skipQueued(client, benchId, reason, now);
    });
  }
}
