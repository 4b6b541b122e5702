/**
 * The trial queue on SQLite (implements lib/bench/queue.ts). Claims and completions are single
 * statements inside transactions on the shared file, so several worker processes can use one
 * database: a trial is `running` for exactly one worker, and only that worker's result is stored.
 * Hot paths use prepared statements (thousands of trials per second).
 */
import type { Statement } from "better-sqlite3";
import type { Db } from "../client";
import { immediateTransaction } from "../write-transaction";
import { transaction } from "../transaction";
import { concurrencyShare } from "@/lib/bench/share";
import type { ClaimedTrial, RunnableBench, TrialOutcome, TrialQueue } from "@/lib/bench/queue";
import { countVerdicts } from "@/lib/bench/score";
import { computeBenchResults } from "./bench-results";
import { retainFailingCasesIn } from "./retention";
import type { BenchSummary } from "./benches";
import type { Recommendation } from "@/lib/bench/recommend";
import { budgetAllowance, budgetSkipReason, inFlightEstimate, outcomeSpend, type SpendCap } from "@/lib/bench/budget";
import { benchEndStatus } from "@/lib/bench/end-status";

/**
 * A trial whose model call started this many times, each time under a worker that then died, is
 * given up as `error` instead of running again. Claims that never started do not count.
 */
export const MAX_ATTEMPTS = 3;

/** The SQLite trial queue bound to one connection. */
export class SqliteTrialQueue implements TrialQueue {
  private readonly st: Record<string, Statement>;
  // better-sqlite3 prepares BEGIN/COMMIT per transaction wrapper: build the wrappers once. Each
  // takes the write lock up front (db/write-transaction.ts).
  private readonly tx: {
    claim: (benchId: number, workerId: string, limit: number, now: number) => Omit<ClaimedTrial, "caseRevisionId">[];
    complete: (workerId: string, outcomes: TrialOutcome[], started: number[]) => number;
    unregister: (workerId: string) => void;
    requeueOrphans: (staleBefore: number, isAlive: (pid: number) => boolean) => number;
    release: (workerId: string, trialIds: number[]) => number;
    finish: (benchId: number, status: string, now: number, summary: BenchSummary, recommendation: Recommendation) => Promise<boolean>;
  };
  private readonly revisionOf = new Map<number, Map<number, number>>();
  /** Per bench: its spend cap (settings are fixed at launch), null for none. */
  private readonly capOf = new Map<number, SpendCap | null>();
  /** Per worker: the newest `started_at` among the live workers at its last {@link runnableBenches}. */
  private readonly newestSeen = new Map<string, number>();
  /** Process ids of the workers registered through this queue (to register one again). */
  private readonly pids = new Map<string, number>();

  constructor(private readonly db: Db) {
    const c = db.$client;
    this.st = {
      // started_at is unique and increasing (ties at the same ms would make two workers each other's
      // elders): it orders the workers, and `settled_at` refers to it.
      register: c.prepare(
        `INSERT INTO workers (id, pid, started_at, heartbeat_at) VALUES (@id, @pid, max(@now, coalesce((SELECT max(started_at) + 1 FROM workers), 0)), @now)
         ON CONFLICT (id) DO UPDATE SET pid = excluded.pid, heartbeat_at = excluded.heartbeat_at`,
      ),
      settle: c.prepare("UPDATE workers SET settled_at = ? WHERE id = ? AND (settled_at IS NULL OR settled_at < ?)"),
      beat: c.prepare("UPDATE workers SET heartbeat_at = ? WHERE id = ?"),
      unregister: c.prepare("DELETE FROM workers WHERE id = ?"),
      requeueWorker: c.prepare("UPDATE trials SET status = 'queued', worker_id = NULL WHERE status = 'running' AND worker_id = ?"),
      workers: c.prepare("SELECT id, pid, heartbeat_at AS heartbeatAt FROM workers"),
      runningWorkers: c.prepare("SELECT DISTINCT worker_id AS id FROM trials WHERE status = 'running'"),
      giveUp: c.prepare(
        `UPDATE trials SET status = 'error', worker_id = NULL, finished_at = ?, error = 'the worker running this trial stopped ' || attempts || ' times after starting its model call; giving up'
         WHERE status = 'running' AND worker_id = ? AND attempts >= ?`,
      ),
      runnable: c.prepare(
        `SELECT id, settings, cancel_requested_at AS cancel FROM benches
         WHERE status IN ('queued', 'running') ORDER BY id`,
      ),
      // Oldest first: a worker that joins takes the smallest share, so the shares of the workers
      // already running a bench (and the trials they hold) change as little as possible.
      liveWorkers: c.prepare("SELECT id, started_at AS startedAt, settled_at AS settledAt FROM workers WHERE heartbeat_at >= ? ORDER BY started_at, id"),
      claim: c.prepare(
        `UPDATE trials SET status = 'running', worker_id = @worker, started_at = @now
         WHERE id IN (SELECT id FROM trials WHERE bench_id = @bench AND status = 'queued' ORDER BY id LIMIT @limit)
         RETURNING id, bench_id AS benchId, candidate_id AS candidateId, bench_case_id AS benchCaseId, repeat, attempts`,
      ),
      release: c.prepare("UPDATE trials SET status = 'queued', worker_id = NULL, started_at = NULL WHERE id = ? AND worker_id = ? AND status = 'running'"),
      // A model call started: one more attempt (the trial is still running).
      started: c.prepare("UPDATE trials SET attempts = attempts + ? WHERE id = ? AND worker_id = ? AND status = 'running'"),
      markRunning: c.prepare("UPDATE benches SET status = 'running', started_at = coalesce(started_at, ?) WHERE id = ? AND status = 'queued'"),
      complete: c.prepare(
        `UPDATE trials SET status = @status, started_at = @startedAt, finished_at = @finishedAt, latency_ms = @latencyMs, input_tokens = @inputTokens,
           output_tokens = @outputTokens, cost_usd = @costUsd, finish_reason = @finishReason, output = @output, record = @record, checks = @checks,
           passed_checks = @passed, failed_checks = @failed, unscored_checks = @unscored, error_checks = @errorChecks, error = @error, worker_id = NULL,
           attempts = attempts + @starts
         WHERE id = @id AND status = 'running' AND worker_id = @worker`,
      ),
      skipQueued: c.prepare("UPDATE trials SET status = 'skipped', error = ?, finished_at = ? WHERE bench_id = ? AND status = 'queued'"),
      open: c.prepare("SELECT 1 FROM trials WHERE bench_id = ? AND status IN ('queued', 'running') LIMIT 1"),
      benchRow: c.prepare("SELECT status, cancel_requested_at AS cancel, rerun_base AS rerunBase FROM benches WHERE id = ?"),
      finish: c.prepare("UPDATE benches SET status = ?, finished_at = ?, summary = ?, recommendation = ? WHERE id = ? AND status IN ('queued', 'running')"),
      setSummary: c.prepare("UPDATE benches SET summary = ? WHERE id = ?"),
      caseRevs: c.prepare("SELECT id, case_revision_id AS rev FROM bench_cases WHERE bench_id = ?"),
      settings: c.prepare("SELECT settings FROM benches WHERE id = ?"),
      spent: c.prepare("SELECT spent_usd AS spentUsd, spent_trials AS spentTrials FROM benches WHERE id = ?"),
      runningCount: c.prepare("SELECT count(*) AS n FROM trials WHERE bench_id = ? AND status = 'running'"),
      addSpent: c.prepare(
        "UPDATE benches SET spent_usd = spent_usd + ?, spent_trials = spent_trials + ? WHERE id = (SELECT bench_id FROM trials WHERE id = ?)",
      ),
    };
    this.tx = {
      claim: immediateTransaction(c, (benchId: number, workerId: string, limit: number, now: number) => {
        // The spend cap is checked in the same write as the claim: what every worker has spent and
        // holds running is counted at once, so no concurrency or number of workers passes it.
        const cap = this.spendCap(benchId);
        if (cap) {
          const spent = this.st.spent.get(benchId) as { spentUsd: number; spentTrials: number };
          const running = (this.st.runningCount.get(benchId) as { n: number }).n;
          const estimate = inFlightEstimate(cap.trialEstimateUsd, spent);
          const a = budgetAllowance({ capUsd: cap.usd, spentUsd: spent.spentUsd, running, trialEstimateUsd: estimate });
          if (a.exhausted) {
            this.st.skipQueued.run(budgetSkipReason(cap.usd, spent.spentUsd), now, benchId);
            return [];
          }
          limit = Math.min(limit, a.startable);
          if (limit <= 0) return [];
        }
        const got = this.st.claim.all({ worker: workerId, now, bench: benchId, limit }) as Omit<ClaimedTrial, "caseRevisionId">[];
        if (got.length) this.st.markRunning.run(now, benchId);
        return got;
      }),
      complete: immediateTransaction(c, (workerId: string, outcomes: TrialOutcome[], started: number[]) => {
        // Starts per trial; a trial that started and ended since the last call is written once.
        const starts = new Map<number, number>();
        for (const id of started) starts.set(id, (starts.get(id) ?? 0) + 1);
        let applied = 0;
        for (const o of outcomes) {
          const before = applied;
          const n = o.checks ? countVerdicts(o.checks) : { passed: 0, failed: 0, unscored: 0, error: 0 };
          applied += this.st.complete.run({
            id: o.id,
            worker: workerId,
            status: o.status,
            startedAt: o.startedAt,
            finishedAt: o.finishedAt,
            latencyMs: o.latencyMs,
            inputTokens: o.inputTokens,
            outputTokens: o.outputTokens,
            costUsd: o.costUsd,
            finishReason: o.finishReason,
            output: o.output,
            record: o.record,
            checks: o.checks ? JSON.stringify(o.checks) : null,
            passed: n.passed,
            failed: n.failed,
            unscored: n.unscored,
            errorChecks: n.error,
            error: o.error,
            starts: starts.get(o.id) ?? 0,
          }).changes;
          // What it spent counts against the bench's spend cap (only a result that was stored); a
          // finished answer also counts in the mean cost per trial, even at $0.
          if (applied > before) {
            const spend = outcomeSpend(o);
            const answered = o.status === "done" ? 1 : 0;
            if (spend > 0 || answered) this.st.addSpent.run(spend, answered, o.id);
          }
          starts.delete(o.id);
        }
        for (const [id, n] of starts) this.st.started.run(n, id, workerId);
        return applied;
      }),
      unregister: immediateTransaction(c, (workerId: string) => {
        this.st.requeueWorker.run(workerId);
        this.st.unregister.run(workerId);
      }),
      requeueOrphans: immediateTransaction(c, (staleBefore: number, isAlive: (pid: number) => boolean) => {
        const known = new Map((this.st.workers.all() as { id: string; pid: number; heartbeatAt: number }[]).map((w) => [w.id, w]));
        let moved = 0;
        for (const { id } of this.st.runningWorkers.all() as { id: string }[]) {
          const w = known.get(id);
          const dead = !w || w.heartbeatAt < staleBefore || !isAlive(w.pid);
          if (!dead) continue;
          this.st.giveUp.run(Date.now(), id, MAX_ATTEMPTS);
          moved += this.st.requeueWorker.run(id).changes;
          this.st.unregister.run(id);
        }
        for (const w of known.values()) if (w.heartbeatAt < staleBefore || !isAlive(w.pid)) this.st.unregister.run(w.id);
        return moved;
      }),
      release: immediateTransaction(c, (workerId: string, trialIds: number[]) => {
        let n = 0;
        for (const id of trialIds) n += this.st.release.run(id, workerId).changes;
        return n;
      }),
      // Re-checks inside the write: another worker may have finalized meanwhile. The retained cases
      // are written in the same transaction (retention runs on this connection, inside it).
      // Retention is async (db/queries on both stores, #20 A): this one is transaction(), also BEGIN IMMEDIATE,
      // and its prepared statements run on the same connection, inside it.
      finish: (benchId: number, status: string, now: number, summary: BenchSummary, recommendation: Recommendation) =>
        transaction(this.db, async (tx) => {
          if (this.st.open.get(benchId)) return false;
          if (this.st.finish.run(status, now, JSON.stringify(summary), JSON.stringify(recommendation), benchId).changes !== 1) return false;
          if (status === "finished") {
            summary.retained = await retainFailingCasesIn(tx, benchId, recommendation, summary.baselineCandidateId);
            if (summary.retained) this.st.setSummary.run(JSON.stringify(summary), benchId);
          }
          return true;
        }),
    };
  }

  async registerWorker(workerId: string, pid: number): Promise<void> {
    this.pids.set(workerId, pid);
    this.st.register.run({ id: workerId, pid, now: Date.now() });
  }

  async settle(workerId: string): Promise<void> {
    const seen = this.newestSeen.get(workerId);
    if (seen !== undefined) this.st.settle.run(seen, workerId, seen);
  }

  async heartbeat(workerId: string): Promise<void> {
    // Another worker took this one for dead (a stalled event loop) and removed it, requeueing its
    // trials: it registers again, as the newest worker (it then waits for the others to settle).
    const pid = this.pids.get(workerId);
    if (this.st.beat.run(Date.now(), workerId).changes === 0 && pid !== undefined) this.st.register.run({ id: workerId, pid, now: Date.now() });
  }

  async unregisterWorker(workerId: string): Promise<void> {
    this.tx.unregister(workerId);
  }

  async requeueOrphans(staleBefore: number, isAlive: (pid: number) => boolean): Promise<number> {
    return this.tx.requeueOrphans(staleBefore, isAlive);
  }

  /**
   * A bench's concurrency is shared by the live workers (heartbeat in the last 15 s), oldest first,
   * in exact shares that add up to the bench's bound (see `concurrencyShare`).
   */
  async runnableBenches(workerId?: string): Promise<RunnableBench[]> {
    const workers = this.st.liveWorkers.all(Date.now() - 15_000) as { id: string; startedAt: number; settledAt: number | null }[];
    const live = workers.map((w) => w.id);
    // This worker's rank among the live ones (a worker not yet seen as live counts as one more).
    let rank = workerId === undefined ? 0 : live.indexOf(workerId);
    let parts = Math.max(1, live.length);
    if (rank < 0) rank = parts++;
    // A worker that joined takes no share until every older one has settled past it (lowered its
    // own shares and let its running trials drain to them): the shares then add up to the bound at
    // every moment, not only once everyone has looked again.
    // A worker not registered (or not live) yet waits for every other one.
    const me = workers.find((w) => w.id === workerId);
    const waiting =
      workerId !== undefined && workers.some((w) => w.id !== workerId && (!me || (w.startedAt < me.startedAt && (w.settledAt ?? -1) < me.startedAt)));
    if (workerId !== undefined)
      this.newestSeen.set(
        workerId,
        workers.reduce((m, w) => Math.max(m, w.startedAt), 0),
      );
    return (this.st.runnable.all() as { id: number; settings: string; cancel: number | null }[]).map((r) => {
      const settings = JSON.parse(r.settings) as { concurrency: number; spendCap?: SpendCap };
      return {
        benchId: r.id,
        // Exact shares (not a rounded-up quotient): concurrency 1 over two workers is 1 + 0, not 1 + 1.
        concurrency: waiting ? 0 : concurrencyShare(settings.concurrency, parts, rank),
        cancelRequested: r.cancel != null,
        // A spend cap is checked against what is stored: finished outcomes are written before each claim.
        ...(settings.spendCap ? { flushBeforeClaim: true } : {}),
      };
    });
  }

  private revisions(benchId: number): Map<number, number> {
    let m = this.revisionOf.get(benchId);
    if (!m) {
      m = new Map((this.st.caseRevs.all(benchId) as { id: number; rev: number }[]).map((r) => [r.id, r.rev]));
      this.revisionOf.set(benchId, m);
    }
    return m;
  }

  private spendCap(benchId: number): SpendCap | null {
    let cap = this.capOf.get(benchId);
    if (cap === undefined) {
      const row = this.st.settings.get(benchId) as { settings: string } | undefined;
      cap = row ? ((JSON.parse(row.settings) as { spendCap?: SpendCap }).spendCap ?? null) : null;
      this.capOf.set(benchId, cap);
    }
    return cap;
  }

  async claim(benchId: number, workerId: string, limit: number, now: number): Promise<ClaimedTrial[]> {
    const rows = this.tx.claim(benchId, workerId, limit, now);
    const revs = this.revisions(benchId);
    // A plain literal, not `{ ...r, caseRevisionId }`: Node 20's V8 copies the hidden class of a
    // spread literal on every call, into the old generation (one per claimed trial; issue #5).
    return rows.map((r) => ({
      id: r.id,
      benchId: r.benchId,
      candidateId: r.candidateId,
      benchCaseId: r.benchCaseId,
      caseRevisionId: revs.get(r.benchCaseId)!,
      repeat: r.repeat,
      attempts: r.attempts,
    }));
  }

  async release(workerId: string, trialIds: number[]): Promise<number> {
    return this.tx.release(workerId, trialIds);
  }

  async complete(workerId: string, outcomes: TrialOutcome[], started: number[] = []): Promise<number> {
    return this.tx.complete(workerId, outcomes, started);
  }

  async skipQueued(benchId: number, reason: string): Promise<number> {
    return this.st.skipQueued.run(reason, Date.now(), benchId).changes;
  }

  async finalize(benchId: number, now: number): Promise<boolean> {
    if (this.st.open.get(benchId)) return false;
    const b = this.st.benchRow.get(benchId) as { status: string; cancel: number | null; rerunBase: number } | undefined;
    if (!b || (b.status !== "queued" && b.status !== "running")) return false;
    const { summary, recommendation } = await computeBenchResults(this.db, benchId);
    // One write: the results, the end status and the retained cases together (a crash between two
    // writes lost the retained cases).
    const done = await this.tx.finish(benchId, benchEndStatus({ cancelRequested: b.cancel != null, rerunBase: b.rerunBase }), now, summary, recommendation);
    this.revisionOf.delete(benchId);
    this.capOf.delete(benchId);
    return done;
  }
}
