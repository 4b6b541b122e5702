/**
 * The trial job queue on SQLite (implements lib/bench/trial-jobs.ts): the one-machine twin of
 * db/pg/trial-job-queue.ts (pg-boss), over the tables of db/schema-sqlite-queue.ts.
 *
 * Every operation is one write transaction (`transaction`, BEGIN IMMEDIATE). SQLite runs one such
 * transaction at a time across all processes on the file, so a claim's counts of current claims per
 * bench and per provider are exact when it takes its slots: the limits hold however many worker
 * processes claim, with no shares to agree on. A trial of a judged bench also counts one slot of its
 * judge's provider when that is another provider (as db/pg/judge-slots.ts does on PostgreSQL), so
 * `BENCHWORK_PROVIDER_CONCURRENCY` includes judge calls. A claim carries a fresh token; a result is stored only
 * with the current token, so at-least-once delivery still ends with one stored result per trial.
 */
import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import type { BenchJobs, TrialClaim, TrialJobQueue, TrialResult } from "@/lib/bench/trial-jobs";
import type { ClaimedTrial } from "@/lib/bench/queue";
import { countVerdicts } from "@/lib/bench/score";
import { judgeProviderKeyOfStored } from "@/lib/bench/provider-key";
import { budgetSkipReason, capAllowance, outcomeSpend, type SpendCap } from "@/lib/bench/budget";
import type { Db } from "../client";
import { benchCandidates, benchCases, benches, trials } from "../schema";
import { queueBenches, queueLanes, queueProviders, trialJobs } from "../schema-sqlite-queue";
import { transaction, type TxDb } from "../transaction";
import { CLAIMED_TRIAL_COLUMNS } from "./trial-jobs";
import { CANDIDATE_SPENT_COLUMNS } from "./bench-budget";

/** Options of {@link SqliteTrialJobQueue}. Times in ms. */
export interface SqliteTrialJobQueueOptions {
  /** How long a claim lasts without a heartbeat (default 60 s). */
  leaseMs?: number;
  /** Deliveries of a trial before it is given up as `error` (default 3). */
  maxDeliveries?: number;
}

function assertLimit(value: number, what: string): void {
  if (!Number.isInteger(value) || value < 1) throw new Error(`${what} must be a whole number ≥ 1 (got ${value})`);
}

const p = (name: string) => sql.placeholder(name);

/**
 * The provider a trial of this lane also takes a slot of for its judge (issue 20, the rule of
 * db/pg/judge-slots.ts): the bench's judge's provider key, unless the bench has no judge or the
 * judge is on the lane's own provider (then the trial's one slot there covers both: the job worker
 * makes a trial's calls one at a time per provider).
 */
function judgeSlotKey(lane: { providerKey: string; judge: string | null }): string | null {
  const key = judgeProviderKeyOfStored(lane.judge);
  return key === lane.providerKey ? null : key;
}

/** Statements run once per trial, prepared once per queue: compiling SQL per call cost ~0.3 ms each. */
function statements(db: Db) {
  return {
    queuedOfLane: db
      .select({ trialId: trialJobs.trialId, deliveries: trialJobs.deliveries })
      .from(trialJobs)
      .where(and(eq(trialJobs.state, "queued"), eq(trialJobs.benchId, p("benchId")), eq(trialJobs.providerKey, p("providerKey"))))
      .orderBy(asc(trialJobs.trialId))
      .limit(p("limit"))
      .prepare(),
    claimJob: db
      .update(trialJobs)
      .set({
        state: "claimed",
        deliveries: sql`${p("delivery")}`,
        workerId: sql`${p("workerId")}`,
        token: sql`${p("token")}`,
        expiresAt: sql`${p("expiresAt")}`,
      })
      .where(eq(trialJobs.trialId, p("trialId")))
      .prepare(),
    closeJob: db
      .update(trialJobs)
      .set({ state: "done" })
      .where(eq(trialJobs.trialId, p("trialId")))
      .prepare(),
    /** The rows of claimed trials (ids as one JSON array: one statement for any number of them). */
    claimedTrials: db
      .select(CLAIMED_TRIAL_COLUMNS)
      .from(trials)
      .innerJoin(benchCases, eq(benchCases.id, trials.benchCaseId))
      .where(sql`${trials.id} IN (SELECT value FROM json_each(${p("ids")}))`)
      .prepare(),
    /** Every open, uncancelled lane with its limits and its bench's judge and spend (the claim's first read). */
    lanes: db
      .select({
        benchId: queueLanes.benchId,
        providerKey: queueLanes.providerKey,
        benchLimit: queueBenches.concurrency,
        providerLimit: queueProviders.concurrency,
        judge: benches.judge,
        settings: benches.settings,
        spentUsd: benches.spentUsd,
        spentTrials: benches.spentTrials,
      })
      .from(queueLanes)
      .innerJoin(queueBenches, eq(queueBenches.benchId, queueLanes.benchId))
      .innerJoin(queueProviders, eq(queueProviders.providerKey, queueLanes.providerKey))
      .innerJoin(benches, eq(benches.id, queueLanes.benchId))
      .where(and(isNull(queueBenches.cancelledAt), inArray(benches.status, ["queued", "running"])))
      .orderBy(asc(queueLanes.benchId), asc(queueLanes.providerKey))
      .prepare(),
    /** Current claims per lane, with the bench's judge (its provider's slots count them too). */
    claimedPerLane: db
      .select({ benchId: trialJobs.benchId, providerKey: trialJobs.providerKey, judge: benches.judge, n: sql<number>`count(*)`.mapWith(Number) })
      .from(trialJobs)
      .innerJoin(benches, eq(benches.id, trialJobs.benchId))
      .where(eq(trialJobs.state, "claimed"))
      .groupBy(trialJobs.benchId, trialJobs.providerKey)
      .prepare(),
    providerLimits: db.select().from(queueProviders).prepare(),
    /** A capped bench's candidates with what they spent (the cap's reads, once per bench and claim). */
    candidateSpend: db
      .select(CANDIDATE_SPENT_COLUMNS)
      .from(benchCandidates)
      .where(eq(benchCandidates.benchId, p("benchId")))
      .prepare(),
    /** A bench's current claims per candidate. */
    claimedPerCandidate: db
      .select({ candidateId: trials.candidateId, n: sql<number>`count(*)`.mapWith(Number) })
      .from(trialJobs)
      .innerJoin(trials, eq(trials.id, trialJobs.trialId))
      .where(and(eq(trialJobs.state, "claimed"), eq(trialJobs.benchId, p("benchId"))))
      .groupBy(trials.candidateId)
      .prepare(),
    markBenchRunning: db
      .update(benches)
      .set({ status: "running", startedAt: sql`coalesce(${benches.startedAt}, ${p("now")})` })
      .where(and(eq(benches.id, p("benchId")), eq(benches.status, "queued")))
      .prepare(),
    expiredJobs: db
      .select({ trialId: trialJobs.trialId, deliveries: trialJobs.deliveries })
      .from(trialJobs)
      .where(and(eq(trialJobs.state, "claimed"), lte(trialJobs.expiresAt, p("now"))))
      .prepare(),
    requeueJob: db
      .update(trialJobs)
      .set({ state: "queued", workerId: null, token: null, expiresAt: null })
      .where(eq(trialJobs.trialId, p("trialId")))
      .prepare(),
    requeueTrial: db
      .update(trials)
      .set({ status: "queued", workerId: null, startedAt: null })
      .where(and(eq(trials.id, p("trialId")), eq(trials.status, "running")))
      .prepare(),
    failJob: db
      .update(trialJobs)
      .set({ state: "failed", workerId: null, token: null, expiresAt: null })
      .where(eq(trialJobs.trialId, p("trialId")))
      .prepare(),
    failTrial: db
      .update(trials)
      .set({
        status: "error",
        workerId: null,
        finishedAt: sql`${p("now")}`,
        attempts: sql`${p("deliveries")}`,
        error: sql`${p("error")}`,
      })
      .where(and(eq(trials.id, p("trialId")), eq(trials.status, "running")))
      .prepare(),
    addSpent: db
      .update(benches)
      .set({ spentUsd: sql`${benches.spentUsd} + ${p("usd")}`, spentTrials: sql`${benches.spentTrials} + ${p("answered")}` })
      .where(eq(benches.id, p("benchId")))
      .prepare(),
    // The same spend on the trial's candidate, and its dearest trial: its running trials count at
    // the dearest trial it has had (lib/bench/budget.ts candidateEstimates).
    addCandidateSpent: db
      .update(benchCandidates)
      .set({
        spentUsd: sql`${benchCandidates.spentUsd} + ${p("usd")}`,
        spentTrials: sql`${benchCandidates.spentTrials} + ${p("answered")}`,
        maxTrialUsd: sql`max(${benchCandidates.maxTrialUsd}, ${p("usd")})`,
      })
      .where(eq(benchCandidates.id, sql`(SELECT ${trials.candidateId} FROM ${trials} WHERE ${trials.id} = ${p("trialId")})`))
      .prepare(),
    runTrial: db
      .update(trials)
      .set({ status: "running", workerId: sql`${p("workerId")}`, startedAt: sql`${p("now")}`, attempts: sql`${p("delivery")}` })
      .where(and(eq(trials.id, p("trialId")), eq(trials.status, "queued")))
      .prepare(),
    finishJob: db
      .update(trialJobs)
      .set({ state: "done", workerId: null, token: null, expiresAt: null })
      .where(and(eq(trialJobs.trialId, p("trialId")), eq(trialJobs.token, p("token")), eq(trialJobs.state, "claimed")))
      .returning({ deliveries: trialJobs.deliveries })
      .prepare(),
    storeResult: db
      .update(trials)
      .set({
        status: sql`${p("status")}`,
        startedAt: sql`${p("startedAt")}`,
        finishedAt: sql`${p("finishedAt")}`,
        latencyMs: sql`${p("latencyMs")}`,
        inputTokens: sql`${p("inputTokens")}`,
        outputTokens: sql`${p("outputTokens")}`,
        costUsd: sql`${p("costUsd")}`,
        finishReason: sql`${p("finishReason")}`,
        output: sql`${p("output")}`,
        record: sql`${p("record")}`,
        checks: sql`${p("checks")}`,
        passedChecks: sql`${p("passed")}`,
        failedChecks: sql`${p("failed")}`,
        unscoredChecks: sql`${p("unscored")}`,
        errorChecks: sql`${p("errorChecks")}`,
        error: sql`${p("error")}`,
        workerId: null,
        attempts: sql`${p("attempts")}`,
      })
      .where(eq(trials.id, p("trialId")))
      .prepare(),
  };
}

/** The SQLite trial job queue over a store's connection. */
export class SqliteTrialJobQueue implements TrialJobQueue<TxDb> {
  readonly leaseMs: number;
  readonly maxDeliveries: number;
  private readonly st: ReturnType<typeof statements>;

  constructor(
    private readonly db: Db,
    options: SqliteTrialJobQueueOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? 60_000;
    this.maxDeliveries = options.maxDeliveries ?? 3;
    assertLimit(this.leaseMs, "leaseMs");
    assertLimit(this.maxDeliveries, "maxDeliveries");
    this.st = statements(db);
  }

  /** Nothing to ready on SQLite: the jobs are rows of the launch transaction. */
  async prepare(): Promise<void> {}

  async enqueue(tx: TxDb, bench: BenchJobs): Promise<number> {
    return SqliteTrialJobQueue.enqueueIn(tx, bench);
  }

  /** {@link enqueue} without a queue instance (a launch has only its transaction): the same rows. */
  static async enqueueIn(tx: TxDb, bench: BenchJobs): Promise<number> {
    assertLimit(bench.concurrency, `bench ${bench.benchId}: concurrency`);
    const providers = new Set(bench.trials.map((t) => t.providerKey));
    for (const p of providers) {
      if (!(p in bench.providerLimits)) throw new Error(`bench ${bench.benchId}: no provider limit for "${p}"`);
      assertLimit(bench.providerLimits[p], `provider "${p}": limit`);
    }
    await tx
      .insert(queueBenches)
      .values({ benchId: bench.benchId, concurrency: bench.concurrency })
      // A rerun enqueued after a cancelled one (issue #16): its jobs must be claimable again.
      .onConflictDoUpdate({ target: queueBenches.benchId, set: { concurrency: bench.concurrency, cancelledAt: null } });
    for (const p of providers) {
      await tx
        .insert(queueProviders)
        .values({ providerKey: p, concurrency: bench.providerLimits[p] })
        .onConflictDoUpdate({ target: queueProviders.providerKey, set: { concurrency: bench.providerLimits[p] } });
      await tx.insert(queueLanes).values({ benchId: bench.benchId, providerKey: p }).onConflictDoNothing();
    }
    let added = 0;
    // SQLite binds at most 32,766 parameters per statement: 3 per row, in chunks.
    for (let i = 0; i < bench.trials.length; i += 5_000) {
      const rows = bench.trials
        .slice(i, i + 5_000)
        .map((t) => ({ trialId: t.trialId, benchId: bench.benchId, providerKey: t.providerKey, state: "queued" as const }));
      added += (await tx.insert(trialJobs).values(rows).onConflictDoNothing().returning({ id: trialJobs.trialId })).length;
    }
    return added;
  }

  /**
   * Stores the limit of bench `benchId`'s judge's provider (in the transaction that enqueues its
   * trials, next to the candidates' limits {@link enqueueIn} stores), so the claim counts judged
   * trials against it as well (the twin of db/pg/judge-slots.ts `storeJudgeProviderLimit`).
   * @param limit trials at once on that provider (`BENCHWORK_PROVIDER_CONCURRENCY`), ≥ 1
   * @returns the judge's provider key, or null when the bench has no judge
   * @throws when `limit` is not a whole number ≥ 1
   */
  static async storeJudgeLimitIn(tx: TxDb, benchId: number, limit: number): Promise<string | null> {
    const [bench] = await tx.select({ judge: benches.judge }).from(benches).where(eq(benches.id, benchId));
    const key = judgeProviderKeyOfStored(bench?.judge ?? null);
    if (key === null) return null;
    assertLimit(limit, `provider "${key}": limit`);
    await tx
      .insert(queueProviders)
      .values({ providerKey: key, concurrency: limit })
      .onConflictDoUpdate({ target: queueProviders.providerKey, set: { concurrency: limit } });
    return key;
  }

  async claim(workerId: string, max: number, now: number): Promise<TrialClaim[]> {
    return transaction(this.db, (tx) => this.claimIn(tx, workerId, max, now));
  }

  /**
   * Stores a batch of results, then claims up to `max` trials, in ONE write transaction, and reads
   * the claimed trials' rows in it (the job worker's step after trials end: their slots are free for
   * this claim, and a claimed trial's row needs no second query). What {@link completeMany}, then
   * {@link claim}, then {@link claimedTrials} do, with one BEGIN IMMEDIATE and one commit instead of
   * three statements' worth of each: at 50 ms latency and 64 trials at once the job worker runs this
   * hundreds of times a second.
   * @returns the ids of the trials whose result was stored, the new claims, and their trials' rows
   */
  async completeAndClaim(
    entries: { claim: TrialClaim; result: TrialResult }[],
    workerId: string,
    max: number,
    now: number,
  ): Promise<{ stored: number[]; claims: TrialClaim[]; trials: ClaimedTrial[] }> {
    return transaction(this.db, async (tx) => {
      const stored = this.completeIn(entries);
      const claims = await this.claimIn(tx, workerId, max, now);
      const trials = claims.length ? this.st.claimedTrials.all({ ids: JSON.stringify(claims.map((c) => c.trialId)) }) : [];
      return { stored, claims, trials };
    });
  }

  /** {@link claim}'s work inside the caller's write transaction. */
  private async claimIn(tx: TxDb, workerId: string, max: number, now: number): Promise<TrialClaim[]> {
    // Expired claims go back to the queue in the claim's own transaction (one BEGIN IMMEDIATE and
    // one commit per claim, not two), so their slots are free for it.
    this.expireIn(now);
    if (max < 1) return [];
    // Prepared once per queue (statements()): building and compiling these per claim cost more
    // than the claim's own work at hundreds of claims per second.
    const lanes = this.st.lanes.all();
    if (lanes.length === 0) return [];
    const claimed = this.st.claimedPerLane.all();
    const benchHeld = new Map<number, number>();
    /** Per provider: the claims that call it, as their candidate's or (on another provider) their judge's. */
    const providerHeld = new Map<string, number>();
    const hold = (key: string, n: number) => providerHeld.set(key, (providerHeld.get(key) ?? 0) + n);
    for (const c of claimed) {
      benchHeld.set(c.benchId, (benchHeld.get(c.benchId) ?? 0) + c.n);
      hold(c.providerKey, c.n);
      const judgeKey = judgeSlotKey(c);
      if (judgeKey !== null) hold(judgeKey, c.n);
    }
    // A judge's provider may have no lane of its own: its limit is stored by the launch.
    const providerLimits = new Map(this.st.providerLimits.all().map((r) => [r.providerKey, r.concurrency]));
    const freeOf = (key: string) => (providerLimits.get(key) ?? Infinity) - (providerHeld.get(key) ?? 0);
    const out: TrialClaim[] = [];
    /** Per bench: trials it may still start under its spend cap in this claim (absent: no cap or not looked at yet). */
    const allowance = new Map<number, number>();
    for (const lane of lanes) {
      const judgeKey = judgeSlotKey(lane);
      let want = Math.min(
        max - out.length,
        lane.benchLimit - (benchHeld.get(lane.benchId) ?? 0),
        lane.providerLimit - (providerHeld.get(lane.providerKey) ?? 0),
        judgeKey === null ? Infinity : freeOf(judgeKey),
      );
      if (want <= 0) continue;
      if (!allowance.has(lane.benchId)) allowance.set(lane.benchId, await this.spendAllowance(tx, lane, now));
      want = Math.min(want, allowance.get(lane.benchId)!);
      if (want <= 0) continue;
      const jobs = this.st.queuedOfLane.all({ benchId: lane.benchId, providerKey: lane.providerKey, limit: want });
      let started = 0;
      for (const job of jobs) {
        // A job whose trial is no longer queued (skipped meanwhile) has nothing to run: close it.
        // Its attempts count deliveries, so a running trial shows the delivery it is on.
        if (this.st.runTrial.run({ trialId: job.trialId, workerId, now, delivery: job.deliveries + 1 }).changes === 0) {
          this.st.closeJob.run({ trialId: job.trialId });
          continue;
        }
        const claim: TrialClaim = {
          trialId: job.trialId,
          benchId: lane.benchId,
          providerKey: lane.providerKey,
          token: randomUUID(),
          delivery: job.deliveries + 1,
          expiresAt: now + this.leaseMs,
        };
        this.st.claimJob.run({ trialId: claim.trialId, delivery: claim.delivery, workerId, token: claim.token, expiresAt: claim.expiresAt });
        out.push(claim);
        started++;
      }
      allowance.set(lane.benchId, allowance.get(lane.benchId)! - started);
      if (started) {
        this.st.markBenchRunning.run({ benchId: lane.benchId, now });
        benchHeld.set(lane.benchId, (benchHeld.get(lane.benchId) ?? 0) + started);
        hold(lane.providerKey, started);
        if (judgeKey !== null) hold(judgeKey, started);
      }
      if (out.length >= max) break;
    }
    return out;
  }

  /**
   * The rows of claimed trials as an executor runs them (what db/queries/trial-jobs.ts
   * `claimedTrialRows` reads, with one prepared statement: the job worker asks after every claim).
   * Ids without a row are left out.
   */
  async claimedTrials(trialIds: readonly number[]): Promise<ClaimedTrial[]> {
    if (trialIds.length === 0) return [];
    return this.st.claimedTrials.all({ ids: JSON.stringify(trialIds) });
  }

  /**
   * How many more trials of the bench may start under its spend cap (lib/bench/budget.ts
   * `capAllowance`), inside the claim's write transaction: what its stored results spent, plus its
   * current claims each at its own candidate's estimate. An exhausted cap skips the bench's queued
   * trials (with the budget reason) and cancels their jobs. Infinity without a cap.
   */
  private async spendAllowance(tx: TxDb, b: { benchId: number; settings: string; spentUsd: number; spentTrials: number }, now: number): Promise<number> {
    const cap = (JSON.parse(b.settings) as { spendCap?: SpendCap }).spendCap;
    if (!cap) return Infinity;
    // Prepared with the queue (statements()), like the claim's other reads: a capped bench's
    // claim ran these two per call, compiled each time.
    const candidates = this.st.candidateSpend.all({ benchId: b.benchId });
    const running = this.st.claimedPerCandidate.all({ benchId: b.benchId });
    const runningOf = new Map(running.map((r) => [r.candidateId, r.n]));
    const a = capAllowance(
      cap,
      { spentUsd: b.spentUsd, spentTrials: b.spentTrials },
      candidates.map((c) => ({ ...c, running: runningOf.get(c.id) ?? 0 })),
    );
    if (!a.exhausted) return a.startable;
    await this.skipQueued(tx, b.benchId, budgetSkipReason(cap.usd, b.spentUsd), now);
    return 0;
  }

  /** Marks the bench's queued trials `skipped` with `reason` and cancels their queued jobs. @returns how many trials */
  private async skipQueued(tx: TxDb, benchId: number, reason: string, now: number): Promise<number> {
    await tx
      .update(trialJobs)
      .set({ state: "cancelled" })
      .where(and(eq(trialJobs.benchId, benchId), eq(trialJobs.state, "queued")));
    const skipped = await tx
      .update(trials)
      .set({ status: "skipped", error: reason, finishedAt: now })
      .where(and(eq(trials.benchId, benchId), eq(trials.status, "queued")))
      .returning({ id: trials.id });
    return skipped.length;
  }

  async heartbeat(workerId: string, now: number): Promise<number> {
    return transaction(this.db, async (tx) => {
      const rows = await tx
        .update(trialJobs)
        .set({ expiresAt: now + this.leaseMs })
        .where(and(eq(trialJobs.workerId, workerId), eq(trialJobs.state, "claimed"), sql`${trialJobs.expiresAt} > ${now}`))
        .returning({ id: trialJobs.trialId });
      return rows.length;
    });
  }

  async expire(now: number): Promise<{ requeued: number; gaveUp: number }> {
    return transaction(this.db, async () => this.expireIn(now));
  }

  /**
   * {@link expire}'s work, inside the caller's write transaction: claims past their lease go back
   * to the queue, or (their last delivery) give their trial up as `error`.
   */
  private expireIn(now: number): { requeued: number; gaveUp: number } {
    let requeued = 0;
    let gaveUp = 0;
    for (const job of this.st.expiredJobs.all({ now })) {
      if (job.deliveries < this.maxDeliveries) {
        this.st.requeueJob.run({ trialId: job.trialId });
        this.st.requeueTrial.run({ trialId: job.trialId });
        requeued++;
      } else {
        this.st.failJob.run({ trialId: job.trialId });
        this.st.failTrial.run({
          trialId: job.trialId,
          now,
          deliveries: job.deliveries,
          error: `the worker running this trial stopped answering ${job.deliveries} times; giving up`,
        });
        gaveUp++;
      }
    }
    return { requeued, gaveUp };
  }

  async complete(claim: TrialClaim, result: TrialResult): Promise<boolean> {
    return (await this.completeMany([{ claim, result }])).length === 1;
  }

  async completeMany(entries: { claim: TrialClaim; result: TrialResult }[]): Promise<number[]> {
    if (entries.length === 0) return [];
    return transaction(this.db, async () => this.completeIn(entries));
  }

  /** {@link completeMany}'s work inside the caller's write transaction. @returns the ids of the trials whose result was stored */
  private completeIn(entries: { claim: TrialClaim; result: TrialResult }[]): number[] {
    // The prepared statements run on the store's one connection, inside the caller's transaction.
    const stored: number[] = [];
    for (const { claim, result } of entries) {
      // Only the current claim (same trial, same token, still claimed) may store a result.
      const held = this.st.finishJob.get({ trialId: claim.trialId, token: claim.token });
      if (!held) continue;
      const n = countVerdicts(result.checks ?? []);
      this.st.storeResult.run({
        trialId: claim.trialId,
        status: result.status,
        startedAt: result.startedAt,
        finishedAt: result.finishedAt,
        latencyMs: result.latencyMs,
        inputTokens: result.inputTokens,
        outputTokens: result.outputTokens,
        costUsd: result.costUsd,
        finishReason: result.finishReason,
        output: result.output,
        record: result.record,
        checks: result.checks ? JSON.stringify(result.checks) : null,
        passed: n.passed,
        failed: n.failed,
        unscored: n.unscored,
        errorChecks: n.error,
        error: result.error,
        attempts: held.deliveries,
      });
      stored.push(claim.trialId);
      // What it spent counts against the bench's spend cap (only a stored result); a finished
      // answer also counts in the mean cost per trial, even at $0.
      const usd = outcomeSpend(result);
      const answered = result.status === "done" ? 1 : 0;
      if (usd > 0 || answered) {
        this.st.addSpent.run({ benchId: claim.benchId, usd, answered });
        this.st.addCandidateSpent.run({ trialId: claim.trialId, usd, answered });
      }
    }
    return stored;
  }

  async cancelBench(benchId: number, reason: string, now: number): Promise<number> {
    return transaction(this.db, async (tx) => {
      await tx
        .update(queueBenches)
        .set({ cancelledAt: sql`coalesce(${queueBenches.cancelledAt}, ${now})` })
        .where(eq(queueBenches.benchId, benchId));
      return this.skipQueued(tx, benchId, reason, now);
    });
  }
}
