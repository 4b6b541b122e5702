/**
 * The trial job queue on PostgreSQL (implements lib/bench/trial-jobs.ts) with pg-boss 10.
 *
 * pg-boss stores and delivers the jobs (one per trial, at least once; `retryLimit` re-deliveries),
 * but it does not cap how many jobs of a group run at once across processes. So:
 * - each bench × provider pair is a pg-boss queue (a "lane"), so a claim can fetch exactly the jobs
 *   it is allowed to run;
 * - a claim runs in one transaction that takes two advisory locks (the bench's and the
 *   provider's, without waiting: a lane another claimer holds is skipped until the next claim),
 *   counts the current claims (`trial_claims`), fetches at most the free slots from the lane
 *   through pg-boss on the same transaction, and records the claims. Every process counts under the
 *   same locks, so the limits hold across processes and hosts. A claim and a batch of results each
 *   take a fixed number of round trips, whatever their size (statements over unnest() arrays);
 * - a claim carries a fresh token; `complete` deletes the claim row with that token and stores the
 *   result in the same transaction, so only the current claim's result is ever stored;
 * - a bench's spend cap is applied in the same claim, under the bench's lock (lib/bench/budget.ts),
 *   and `completeMany` adds what each stored result spent to the bench and its candidates, last and
 *   with its COMMIT, so those shared rows are locked only while PostgreSQL runs that step;
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
import type { ClaimedTrial } from "@/lib/bench/queue";
import { countVerdicts } from "@/lib/bench/score";
import { budgetSkipReason, capAllowance, type CandidateSpend, type SpendCap } from "@/lib/bench/budget";
import { openPgPool, withPgTransaction, withPgTransactionCommittingWith } from "./client";
import { benchLockKey } from "./bench-lock";
import { ensureFetchOrderIndex } from "./fetch-order-index";
import { QUEUE_DDL_LOCK, retireEndedLanes, type LaneRetirement } from "./lane-retirement";
import { judgeClaimsSql, judgeKeySql, tryJudgeProviderFree } from "./judge-slots";
import { spendSql, spendOf } from "./result-spend";
import { TRIAL_JOBS_CHANNEL } from "./trial-job-notices";

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

/** A lane's bench and provider as a claim reads them under their locks: limits, current claims, spend. */
interface LaneState {
  cancelled: boolean;
  benchLimit: number;
  providerLimit: number;
  benchRunning: number;
  providerRunning: number;
  cap: SpendCap | null;
  spentUsd: number;
  spentTrials: number;
  /** With a cap: each candidate's spend and running trials (what its running trials count for); null without one. */
  candidates: (CandidateSpend & { id: number })[] | null;
  /** The provider key of the bench's judge (null without one). */
  judgeKey: string | null;
  /** Claims of other providers' trials whose judge is this lane's provider. */
  providerJudgeClaims: number;
}

/** A pg-boss queue of one bench's trials for one provider. */
interface Lane {
  name: string;
  benchId: number;
  providerKey: string;
}

/** What results stored in the current transaction spent, added to their rows only at its COMMIT. */
type PendingSpend = ReturnType<typeof spendOf>;
const NO_SPEND: PendingSpend = { candidates: [], benches: [] };

/** A lane's state with `pending` counted as spent (the bench's and each candidate's figures). */
function withPending(state: LaneState, benchId: number, pending: PendingSpend): LaneState {
  const bench = pending.benches.find((b) => b.id === benchId);
  if (!bench && pending.candidates.length === 0) return state;
  const byId = new Map(pending.candidates.map((c) => [c.id, c]));
  return {
    ...state,
    spentUsd: state.spentUsd + (bench?.usd ?? 0),
    spentTrials: state.spentTrials + (bench?.answered ?? 0),
    candidates:
      state.candidates?.map((c) => {
        const d = byId.get(c.id);
        return d ? { ...c, spentUsd: c.spentUsd + d.usd, spentTrials: c.spentTrials + d.answered, maxTrialUsd: Math.max(c.maxTrialUsd ?? 0, d.maxUsd) } : c;
      }) ?? null,
  };
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

/**
 * Completes jobs `ids` of queue `lane` on `client`'s open transaction, so they are completed only if
 * it commits. pg-boss 10's `complete` is `(name, ids, data, options)`; its typings also offer
 * `(name, ids, options)`, which the code reads as the job's output data: the options are then
 * ignored and the jobs completed at once on pg-boss's own pool. A store that did not commit (its
 * worker killed before the COMMIT, or a deadlock abort) left a completed job behind a trial still
 * running under its claim; when that claim expired, the trial was given up as `error` after one
 * delivery (server/bench/pg-kill.test.ts failed so in CI).
 */
async function completeJobs(boss: PgBoss, client: pg.ClientBase, lane: string, ids: string[]): Promise<void> {
  const complete = boss.complete.bind(boss) as unknown as (name: string, ids: string[], data: null, options: PgBoss.ConnectionOptions) => Promise<unknown>;
  await complete(lane, ids, null, { db: onClient(client) });
}

function assertLimit(value: number, what: string): void {
  if (!Number.isInteger(value) || value < 1) throw new Error(`${what} must be a whole number ≥ 1 (got ${value})`);
}

/**
 * A batch of results as the parameters of {@link PgTrialJobQueue.completeMany}'s statement: one array
 * per column, in the order of its `unnest` (checks and record as JSON text; the verdict counts
 * computed here).
 */
function resultColumns(batch: { claim: TrialClaim; result: TrialResult }[]): unknown[] {
  const counts = batch.map((e) => countVerdicts(e.result.checks ?? []));
  const col = <T>(f: (r: TrialResult) => T) => batch.map((e) => f(e.result));
  return [
    batch.map((e) => e.claim.trialId),
    batch.map((e) => e.claim.token),
    col((r) => r.status),
    col((r) => r.startedAt),
    col((r) => r.finishedAt),
    col((r) => r.latencyMs),
    col((r) => r.inputTokens),
    col((r) => r.outputTokens),
    col((r) => r.costUsd),
    col((r) => r.finishReason),
    col((r) => r.output),
    col((r) => r.record),
    col((r) => (r.checks ? JSON.stringify(r.checks) : null)),
    counts.map((n) => n.passed),
    counts.map((n) => n.failed),
    counts.map((n) => n.unscored),
    counts.map((n) => n.error),
    col((r) => r.error),
  ];
}

/** The PostgreSQL / pg-boss trial job queue. Call {@link start} before use and {@link stop} at the end. */
export class PgTrialJobQueue implements TrialJobQueue<pg.ClientBase> {
  readonly leaseMs: number;
  readonly maxDeliveries: number;
  private readonly pool: pg.Pool;
  private readonly url: string;
  private readonly boss: PgBoss;
  /** Whether the last {@link claim} saw any queued or running bench in the queue (full or not). */
  lastLookSawOpenBench = true;
  /**
   * Whether the last {@link claim} or {@link completeAndClaim} skipped a lane because another claimer
   * held its bench's or provider's lock (and so may have left slots free): the worker claims again
   * soon instead of at its next poll (server/pg-loop-queue.ts).
   */
  lastClaimLockedOut = false;
  /** Set by claimLane when it skips a lane for its lock. */
  private lockedOut = false;
  private readonly bossPool: pg.Pool;
  /** The last error pg-boss reported (it emits errors instead of throwing them). */
  lastBossError: Error | null = null;

  constructor(options: PgTrialJobQueueOptions) {
    this.leaseMs = options.leaseMs ?? 60_000;
    this.maxDeliveries = options.maxDeliveries ?? 3;
    assertLimit(this.leaseMs, "leaseMs");
    assertLimit(this.maxDeliveries, "maxDeliveries");
    this.url = options.url;
    this.pool = openPgPool(options.url, options.poolSize ?? 4);
    // pg-boss runs its SQL on a pool of ours: its own pool has no `error` listener on the clients
    // it checks out, so a connection PostgreSQL drops there ended the process (openPgPool).
    this.bossPool = openPgPool(options.url, 2, "benchwork-queue");
    const bossPool = this.bossPool;
    this.boss = new PgBoss({
      db: { executeSql: (text: string, values?: unknown[]) => bossPool.query(text, values) },
      supervise: options.supervise ?? false,
      schedule: false,
      migrate: true,
    });
    this.boss.on("error", (e) => (this.lastBossError = e));
  }

  /**
   * Connects, installs (or upgrades) pg-boss's schema and adds the index its fetch needs
   * (db/pg/fetch-order-index.ts; when that fails, one line says why and the queue works without it).
   */
  async start(): Promise<void> {
    await this.boss.start();
    await ensureFetchOrderIndex(this.pool).catch((e: Error) =>
      console.error(`benchwork: the index pg-boss's fetch needs could not be made (${e.message}); each claim reads its lane's whole backlog until it is`),
    );
  }

  /** Closes both connection pools. */
  async stop(): Promise<void> {
    await this.boss.stop({ graceful: false, close: true, wait: true });
    await this.bossPool.end();
    await this.pool.end();
  }

  /** A lane's pg-boss queue options (what `createQueue` stores for it, as pg-boss's `create_queue` reads them). */
  private laneOptions() {
    return { policy: "standard" as const, retryLimit: this.maxDeliveries - 1, retryDelay: 0, expireInSeconds: BOSS_EXPIRE_SECONDS };
  }

  /**
   * Makes the bench's lanes (pg-boss queues) outside its launch transaction: making one takes locks
   * on pg-boss's tables (its job table's partitions, its queue table) that the launch would hold to
   * its commit. {@link enqueue} makes a lane again inside the launch only when it was retired since.
   */
  async prepare(bench: Pick<BenchJobs, "benchId" | "trials">): Promise<void> {
    for (const providerKey of new Set(bench.trials.map((t) => t.providerKey)))
      await withPgTransaction(this.pool, (client) => this.makeLane(client, laneName(bench.benchId, providerKey)));
  }

  /**
   * Makes lane `name` on `client`'s open transaction unless it exists (pg-boss's `create_queue`,
   * what its `createQueue` runs), under the lock lane retirement drops lanes under: two makes at once
   * deadlocked otherwise (each inserts its queue row, then locks the queue table for its foreign key).
   */
  private async makeLane(client: pg.ClientBase, name: string): Promise<void> {
    await client.query(`SELECT pg_advisory_xact_lock(${QUEUE_DDL_LOCK})`);
    await client.query("SELECT pgboss.create_queue($1, $2)", [name, this.laneOptions()]);
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
    // Under the bench's lock, which retireEndedLanes takes too: a lane it retired after prepare() (a
    // rerun of an ended bench, just as a sweep ran) is seen missing here and made again in this
    // transaction; a lane seen here is not retired before this transaction ends.
    await tx.query(`SELECT pg_advisory_xact_lock(${benchLockKey("$1")})`, [bench.benchId]);
    const names = [...providers].map((p) => laneName(bench.benchId, p));
    const made = new Set((await tx.query<{ name: string }>("SELECT name FROM pgboss.queue WHERE name = ANY($1)", [names])).rows.map((r) => r.name));
    for (const p of providers) {
      await tx.query(
        `INSERT INTO queue_providers (provider_key, concurrency) VALUES ($1, $2)
         ON CONFLICT (provider_key) DO UPDATE SET concurrency = excluded.concurrency`,
        [p, bench.providerLimits[p]],
      );
      const name = laneName(bench.benchId, p);
      if (!made.has(name)) await this.makeLane(tx, name);
      await tx.query("INSERT INTO queue_lanes (name, bench_id, provider_key) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING", [name, bench.benchId, p]);
    }
    const jobs: PgBoss.JobInsert<JobData>[] = bench.trials.map((t) => ({
      id: trialJobId(t.trialId),
      name: laneName(bench.benchId, t.providerKey),
      data: { trialId: t.trialId, benchId: bench.benchId, providerKey: t.providerKey },
    }));
    // pg-boss inserts a whole array in one statement; chunks keep each one a modest size.
    for (let i = 0; i < jobs.length; i += 5_000) await this.boss.insert(jobs.slice(i, i + 5_000), { db: onClient(tx) });
    // Delivered when the launch commits (not if it rolls back): idle workers look at once (trial-job-notices.ts).
    await tx.query("SELECT pg_notify($1, $2)", [TRIAL_JOBS_CHANNEL, String(bench.benchId)]);
    return jobs.length;
  }

  async claim(workerId: string, max: number, now: number, rows: ClaimedTrial[] = []): Promise<TrialClaim[]> {
    const lanes = await this.openLanes(this.pool, now);
    if (lanes.expired) await this.expire(now);
    this.lockedOut = false;
    const out: TrialClaim[] = [];
    for (const lane of lanes.lanes) {
      if (out.length >= max) break;
      out.push(...(await withPgTransaction(this.pool, (client) => this.claimLane(client, lane, workerId, max - out.length, now, NO_SPEND, rows))));
    }
    this.lastClaimLockedOut = this.lockedOut;
    return out;
  }

  /**
   * {@link completeMany}, then a claim of up to `max` trials, in ONE transaction: the slots the
   * stored results free are taken at the same commit (with two calls they stood free between the
   * store's commit and the claim's, ~12 % of slot time at 500 ms trials: bench/pg-workers.ts
   * `held`), in 9 round trips where completeMany, claim and the read of the claimed trials' rows
   * took 4 + 7 + 1. The claim counts what the batch spent before its
   * spend is added (at the COMMIT, as completeMany's), so the spend cap holds. When a claim has
   * expired, the claim runs after the commit as {@link claim} does (expiring it first).
   * @returns the ids of the trials whose result was stored, the new claims, and their trials' rows
   *   (as db/queries/trial-jobs.ts `claimedTrialRows` reads them; a trial without one left out)
   */
  async completeAndClaim(
    entries: { claim: TrialClaim; result: TrialResult }[],
    workerId: string,
    max: number,
    now: number,
  ): Promise<{ stored: number[]; claims: TrialClaim[]; trials: ClaimedTrial[] }> {
    this.lockedOut = false;
    const trials: ClaimedTrial[] = [];
    const r = await withPgTransactionCommittingWith(this.pool, async (client) => {
      const { stored, spend } = await this.storeOn(client, entries);
      const claims: TrialClaim[] = [];
      let expired = false;
      if (max > 0) {
        // On the transaction's client: the lanes as they stand with this batch's claims gone.
        const lanes = await this.openLanes(client, now);
        expired = lanes.expired;
        for (const lane of expired ? [] : lanes.lanes) {
          if (claims.length >= max) break;
          claims.push(...(await this.claimLane(client, lane, workerId, max - claims.length, now, spend, trials)));
        }
      }
      return { result: { stored, claims, expired }, beforeCommit: spendSql(spend) };
    });
    this.lastClaimLockedOut = this.lockedOut;
    const claims = r.expired ? await this.claim(workerId, max, now, trials) : r.claims;
    return { stored: r.stored, claims, trials };
  }

  /**
   * The open lanes with a free slot, and whether any claim has expired, in one round trip on `q`
   * (the pool, or a transaction's client: it then sees that transaction's own stored results).
   */
  private async openLanes(q: pg.Pool | pg.ClientBase, now: number): Promise<{ expired: boolean; lanes: Lane[] }> {
    // One round trip when nothing expired (the usual case: the loop claims after every flush): the
    // open lanes, and whether any claim has expired. The LEFT JOIN keeps one row when no lane is open,
    // so claims of a cancelled bench still expire. A lane whose bench or provider has no free slot
    // (counting live claims, as they stand once expired ones are gone) is left out: with several
    // workers most claims find the bench full, and each such lane would cost a transaction, its
    // locks and its counts for nothing (bench/pg-workers.ts). This read takes no lock, so it is
    // only a filter: claimLane counts again under the locks and decides.
    // `open`: whether any bench of the queue is still queued or running, full or not (an idle worker
    // that saw none may stop looking until a launch notifies it: lib/bench/idle-gate.ts).
    const lanes = await q.query<{ expired: boolean; open: boolean; name: string | null; benchId: number | null; providerKey: string | null }>(
      `SELECT e.expired, e.open, l.name, l.bench_id AS "benchId", l.provider_key AS "providerKey"
       FROM (SELECT EXISTS (SELECT 1 FROM trial_claims WHERE expires_at <= $1) AS expired,
                    EXISTS (SELECT 1 FROM benches ob WHERE ob.status IN ('queued', 'running') AND EXISTS (SELECT 1 FROM queue_lanes ql WHERE ql.bench_id = ob.id)) AS open) e
       LEFT JOIN LATERAL (
         SELECT l.name, l.bench_id, l.provider_key
         FROM queue_lanes l JOIN queue_benches b ON b.bench_id = l.bench_id JOIN benches ON benches.id = l.bench_id
           LEFT JOIN queue_providers p ON p.provider_key = l.provider_key
         WHERE b.cancelled_at IS NULL AND benches.status IN ('queued', 'running')
           AND (SELECT count(*) FROM trial_claims c WHERE c.bench_id = l.bench_id AND c.expires_at > $1) < b.concurrency
           AND (p.concurrency IS NULL OR (SELECT count(*) FROM trial_claims c WHERE c.provider_key = l.provider_key AND c.expires_at > $1) < p.concurrency)
       ) l ON true
       ORDER BY l.bench_id, l.name`,
      [now],
    );
    this.lastLookSawOpenBench = lanes.rows[0]?.open ?? true;
    const open: Lane[] = [];
    for (const l of lanes.rows)
      if (l.name !== null && l.benchId !== null && l.providerKey !== null) open.push({ name: l.name, benchId: l.benchId, providerKey: l.providerKey });
    return { expired: lanes.rows[0]?.expired ?? false, lanes: open };
  }

  /**
   * Claims up to `want` trials of one lane under its bench's and provider's locks, on `client`'s
   * open transaction, in a fixed number of round trips whatever the batch: the two locks, the limits
   * and spend, pg-boss's fetch, one statement for the trials' and claims' rows.
   * @param pending what results stored in this transaction spent (added only at its COMMIT): the
   *   spend cap counts it as spent
   * @param claimedRows receives the claimed trials' rows (a trial without its bench case row is left out)
   */
  private async claimLane(
    client: pg.ClientBase,
    lane: Lane,
    workerId: string,
    want: number,
    now: number,
    pending: PendingSpend,
    claimedRows: ClaimedTrial[] = [],
  ): Promise<TrialClaim[]> {
    // Both locks in one statement, without waiting: a lane another claimer is serving (it holds the
    // bench's or the provider's lock) is skipped, and this worker claims again after its next flush
    // or poll. A claimer that waited would hold up its own loop (and the results it has to store,
    // whose claims still count against the limits) behind every other worker's claim. Try-locks
    // never wait, so their order cannot deadlock. The counts below are a statement of their own:
    // a statement's snapshot is taken when it starts, before any lock it takes.
    const locks = await client.query<{ bench: boolean; provider: boolean }>(
      `SELECT pg_try_advisory_xact_lock(${benchLockKey("$1")}) AS bench,
              pg_try_advisory_xact_lock(hashtextextended('benchwork:provider:' || $2::text, 0)) AS provider`,
      [lane.benchId, lane.providerKey],
    );
    if (!locks.rows[0].bench || !locks.rows[0].provider) {
      this.lockedOut = true;
      return [];
    }
    const { rows } = await client.query<LaneState>(
      `SELECT b.cancelled_at IS NOT NULL AS cancelled, b.concurrency AS "benchLimit", p.concurrency AS "providerLimit",
              (SELECT count(*) FROM trial_claims c WHERE c.bench_id = b.bench_id)::int AS "benchRunning",
              (SELECT count(*) FROM trial_claims c WHERE c.provider_key = p.provider_key)::int AS "providerRunning",
              benches.settings->'spendCap' AS cap, benches.spent_usd AS "spentUsd", benches.spent_trials AS "spentTrials",
              CASE WHEN benches.settings->'spendCap' IS NOT NULL THEN (
                SELECT coalesce(json_agg(json_build_object('id', bc.id, 'position', bc.position, 'spentUsd', bc.spent_usd, 'spentTrials', bc.spent_trials, 'maxTrialUsd', bc.max_trial_usd,
                  'running', (SELECT count(*) FROM trial_claims c JOIN trials t ON t.id = c.trial_id WHERE c.bench_id = b.bench_id AND t.candidate_id = bc.id))), '[]')
                FROM bench_candidates bc WHERE bc.bench_id = b.bench_id) END AS candidates,
              ${judgeKeySql("benches")} AS "judgeKey", ${judgeClaimsSql("p.provider_key")} AS "providerJudgeClaims"
       FROM queue_benches b JOIN benches ON benches.id = b.bench_id, queue_providers p
       WHERE b.bench_id = $1 AND p.provider_key = $2`,
      [lane.benchId, lane.providerKey],
    );
    const state = rows[0] && withPending(rows[0], lane.benchId, pending);
    if (!state || state.cancelled) return [];
    // Judged trials count against their judge's provider too (db/pg/judge-slots.ts): the claims
    // judged on this lane's provider here, and when this bench's judge is on another provider, that one's.
    let free = Math.min(want, state.benchLimit - state.benchRunning, state.providerLimit - state.providerRunning - state.providerJudgeClaims);
    if (free > 0 && state.judgeKey !== null && state.judgeKey !== lane.providerKey) {
      const judgeFree = await tryJudgeProviderFree(client, state.judgeKey);
      if (judgeFree === false) return [];
      free = Math.min(free, judgeFree);
    }
    if (free <= 0) return [];
    const allowed = await this.spendAllowance(client, lane.benchId, state, now);
    if (allowed === "exhausted") return [];
    free = Math.min(free, allowed);
    if (free <= 0) return [];
    const jobs = await this.boss.fetch<JobData>(lane.name, { batchSize: free, includeMetadata: true, ignoreStartAfter: true, db: onClient(client) });
    if (jobs.length === 0) return [];
    const fetched = jobs.map((job) => ({ job, token: randomUUID() }));
    // One statement for the whole batch (data-modifying CTEs share one snapshot and feed each
    // other through RETURNING): trials still queued become running, each gets its claim row, and
    // the bench is marked running. Raw SQL: drizzle builds no INSERT … SELECT over unnest() arrays
    // joined to an UPDATE's RETURNING; the row type is stated at the boundary.
    // It also returns the claimed trials' rows as the executor runs them (db/queries/trial-jobs.ts
    // CLAIMED_TRIAL_COLUMNS): no read of them after the commit, before the trials can start.
    const claimed = await client.query<{ trialId: number; row: ClaimedTrial | null }>(
      `WITH running AS (
         UPDATE trials SET status = 'running', worker_id = $1, started_at = $2
         WHERE id = ANY($3::int[]) AND status = 'queued'
         RETURNING id, bench_id, candidate_id, bench_case_id, "repeat", attempts
       ), claims AS (
         INSERT INTO trial_claims (trial_id, bench_id, provider_key, lane, job_id, worker_id, token, delivery, claimed_at, expires_at)
         SELECT e.trial_id, $6, $7, $8, e.job_id, $1, e.token, e.delivery, $2, $9
         FROM unnest($3::int[], $4::uuid[], $5::uuid[], $10::int[]) AS e(trial_id, job_id, token, delivery)
         JOIN running r ON r.id = e.trial_id
         RETURNING trial_id
       ), bench AS (
         UPDATE benches SET status = 'running', started_at = coalesce(started_at, $2)
         WHERE id = $6 AND status = 'queued' AND EXISTS (SELECT 1 FROM running)
       )
       SELECT c.trial_id AS "trialId",
              CASE WHEN bc.id IS NOT NULL THEN json_build_object('id', r.id, 'benchId', r.bench_id, 'candidateId', r.candidate_id,
                'benchCaseId', r.bench_case_id, 'caseRevisionId', bc.case_revision_id, 'repeat', r."repeat", 'attempts', r.attempts) END AS row
       FROM claims c JOIN running r ON r.id = c.trial_id LEFT JOIN bench_cases bc ON bc.id = r.bench_case_id`,
      [
        workerId,
        now,
        fetched.map((f) => f.job.data.trialId),
        fetched.map((f) => f.job.id),
        fetched.map((f) => f.token),
        lane.benchId,
        lane.providerKey,
        lane.name,
        now + this.leaseMs,
        fetched.map((f) => f.job.retryCount + 1),
      ],
    );
    const live = new Set(claimed.rows.map((r) => r.trialId));
    for (const r of claimed.rows) if (r.row) claimedRows.push(r.row);
    // A job whose trial is no longer queued has nothing to run: close it.
    const dead = jobs.filter((j) => !live.has(j.data.trialId)).map((j) => j.id);
    if (dead.length) await completeJobs(this.boss, client, lane.name, dead);
    return fetched
      .filter((f) => live.has(f.job.data.trialId))
      .map(({ job, token }) => ({
        trialId: job.data.trialId,
        benchId: lane.benchId,
        providerKey: lane.providerKey,
        token,
        delivery: job.retryCount + 1,
        expiresAt: now + this.leaseMs,
      }));
  }

  /**
   * How many more trials of the bench may start under its spend cap (lib/bench/budget.ts
   * `capAllowance`), counted under the bench's lock like SQLite's claim: what its stored results
   * spent, plus its current claims each at its own candidate's estimate (`b`, read under the lock
   * with the limits). An exhausted cap skips the bench's queued trials (with the budget reason) and
   * cancels their jobs. Infinity without a cap.
   */
  private async spendAllowance(client: pg.ClientBase, benchId: number, b: LaneState, now: number): Promise<number | "exhausted"> {
    if (!b.cap) return Infinity;
    const a = capAllowance(b.cap, { spentUsd: b.spentUsd, spentTrials: b.spentTrials }, b.candidates ?? []);
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
    return withPgTransactionCommittingWith(this.pool, async (client) => {
      const { stored, spend } = await this.storeOn(client, entries);
      // Last, what the stored results spent, with the COMMIT in the same round trip: every worker's
      // batches add to the same bench and candidate rows, so each holds their locks only while
      // PostgreSQL runs these statements, never across a round trip to this process (they were 22 ms
      // a call with 4 workers when the spend was added first). The claim reads them under the
      // bench's lock; this transaction's claim deletions and spend become visible at one commit.
      return { result: stored, beforeCommit: spendSql(spend) };
    });
  }

  /**
   * Stores the results of `entries` whose claims are still current, on `client`'s open transaction,
   * and completes their jobs (2 round trips). @returns the stored trials' ids and what they spent
   * (for the caller to add at its COMMIT)
   */
  private async storeOn(client: pg.ClientBase, entries: { claim: TrialClaim; result: TrialResult }[]): Promise<{ stored: number[]; spend: PendingSpend }> {
    if (entries.length === 0) return { stored: [], spend: NO_SPEND };
    // One entry per claim (the last one given, as a map would keep): a claim's result is stored once.
    const batch = [...new Map(entries.map((e) => [`${e.claim.trialId}:${e.claim.token}`, e])).values()];
    const columns = resultColumns(batch);
    // One statement for the whole batch: only claims still current (same trial and token) are
    // deleted, and only their results stored, with the attempts of their delivery. It locks only
    // the batch's own claim and trial rows. Raw SQL: drizzle builds no DELETE … RETURNING feeding
    // an UPDATE … FROM unnest() arrays; the row type is stated here.
    const held = await client.query<{ trialId: number; token: string; benchId: number; candidateId: number; lane: string; jobId: string }>(
      `WITH e AS (
         SELECT * FROM unnest($1::int[], $2::uuid[], $3::text[], $4::bigint[], $5::bigint[], $6::int[], $7::int[], $8::int[], $9::float8[],
                              $10::text[], $11::text[], $12::text[], $13::text[], $14::int[], $15::int[], $16::int[], $17::int[], $18::text[])
           AS e(trial_id, token, status, started_at, finished_at, latency_ms, input_tokens, output_tokens, cost_usd,
                finish_reason, output, record, checks, passed, failed, unscored, errored, error)
       ), held AS (
         DELETE FROM trial_claims c USING e WHERE c.trial_id = e.trial_id AND c.token = e.token
         RETURNING c.trial_id, c.bench_id, c.lane, c.job_id, c.delivery, c.token
       ), stored AS (
         UPDATE trials t SET status = e.status, started_at = e.started_at, finished_at = e.finished_at, latency_ms = e.latency_ms,
           input_tokens = e.input_tokens, output_tokens = e.output_tokens, cost_usd = e.cost_usd, finish_reason = e.finish_reason,
           output = e.output, record = e.record::json, checks = e.checks::json, passed_checks = e.passed, failed_checks = e.failed,
           unscored_checks = e.unscored, error_checks = e.errored, error = e.error, worker_id = NULL, attempts = h.delivery
         FROM held h JOIN e ON e.trial_id = h.trial_id AND e.token = h.token
         WHERE t.id = h.trial_id
         RETURNING t.id, t.candidate_id
       )
       SELECT h.trial_id AS "trialId", h.token, h.bench_id AS "benchId", s.candidate_id AS "candidateId", h.lane, h.job_id AS "jobId"
       FROM held h JOIN stored s ON s.id = h.trial_id`,
      columns,
    );
    const jobsByLane = new Map<string, string[]>();
    for (const { lane, jobId } of held.rows) {
      const ids = jobsByLane.get(lane);
      if (ids) ids.push(jobId);
      else jobsByLane.set(lane, [jobId]);
    }
    for (const [lane, ids] of jobsByLane) await completeJobs(this.boss, client, lane, ids);
    return { stored: held.rows.map((r) => r.trialId), spend: spendOf(batch, held.rows) };
  }

  /**
   * Drops up to `max` lanes of ended benches (their pg-boss queues and job tables) without holding
   * up claims and stores (db/pg/lane-retirement.ts). Job workers call it after a bench ends and when
   * they start (server/lane-retirer.ts).
   */
  async retireEndedLanes(max?: number): Promise<LaneRetirement> {
    return retireEndedLanes(this.url, max);
  }

  async cancelBench(benchId: number, reason: string, now: number): Promise<number> {
    return withPgTransaction(this.pool, async (client) => {
      // Under the bench's lock: no claim of this bench is between its check and its commit.
      await client.query(`SELECT pg_advisory_xact_lock(${benchLockKey("$1")})`, [benchId]);
      await client.query("UPDATE queue_benches SET cancelled_at = coalesce(cancelled_at, $2) WHERE bench_id = $1", [benchId, now]);
      return this.skipQueued(client, benchId, reason, now);
    });
  }
}
