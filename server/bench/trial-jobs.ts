/**
 * Benches on PostgreSQL (issue 20): every place that stores queued trials (a launch, a confirm or
 * error rerun) enqueues their pg-boss jobs in the same transaction. The queue's lanes (pg-boss
 * queues, made with DDL of their own) are prepared before the transaction, so a launch reserves its
 * bench id first. On SQLite the jobs are rows of the same file (db/queries/trial-job-queue.ts),
 * written in the same transaction; nothing to ready before it.
 */
import type pg from "pg";
import type { Db } from "@/db/client";
import { isPostgres } from "@/db/dialect";
import { pgClientOfTx } from "@/db/pg/tx-client";
import { PgTrialJobQueue } from "@/db/pg/trial-job-queue";
import { storeJudgeProviderLimit } from "@/db/pg/judge-slots";
import { SqliteTrialJobQueue } from "@/db/queries/trial-job-queue";
import { transaction, type TxDb } from "@/db/transaction";
import { getBench } from "@/db/queries/benches";
import { benchesWithoutJobs, requeueJoblessRunning } from "@/db/queries/trial-jobs-backfill";
import { queuedTrialLanes } from "@/db/queries/trial-jobs";
import type { ModelConfig } from "@/lib/runtime/model-config";
import { providerKeyOfConfig } from "./provider-key";
import { providerConcurrency } from "../worker";

/** The lane of trials that call no provider (recorded candidates): its limit never binds. */
export const RECORDED_LANE = "recorded";
/** The recorded lane's limit: the bench's concurrency bounds those trials (an int4 column holds it). */
const RECORDED_LIMIT = 1_000_000;

/** A candidate as far as its lane goes. */
type LaneCandidate = { kind: "model" | "recorded"; modelConfig: ModelConfig | null };

/** The provider lane of a candidate's trials: its provider key, or {@link RECORDED_LANE}. */
export function laneKeyOf(c: LaneCandidate): string {
  return c.kind === "model" && c.modelConfig ? providerKeyOfConfig(c.modelConfig) : RECORDED_LANE;
}

const queues = new WeakMap<object, Promise<PgTrialJobQueue>>();

/**
 * The started job queue of a PostgreSQL store, one per store in this process (its URL is the store
 * pool's). Stop it with {@link stopJobQueue}.
 * @throws on SQLite
 */
export function jobQueueOf(db: Db): Promise<PgTrialJobQueue> {
  if (!isPostgres(db)) throw new Error("jobQueueOf: the trial job queue is PostgreSQL's");
  const pool = db.$client as unknown as pg.Pool & { options: { connectionString?: string } };
  let q = queues.get(pool);
  if (!q) {
    const url = pool.options.connectionString;
    if (!url) throw new Error("jobQueueOf: the PostgreSQL store was opened without a URL");
    const queue = new PgTrialJobQueue({ url });
    q = queue.start().then(() => queue);
    q.catch(() => queues.delete(pool));
    queues.set(pool, q);
  }
  return q;
}

/** Stops the store's job queue when this process started one (tests, shutdown). */
export async function stopJobQueue(db: Db): Promise<void> {
  const q = queues.get(db.$client as object);
  if (!q) return;
  queues.delete(db.$client as object);
  await (await q.catch(() => null))?.stop();
}

/** Each provider lane's limit: `BENCHWORK_PROVIDER_CONCURRENCY`, the recorded lane's never binds. */
function laneLimits(keys: readonly string[], env: Record<string, string | undefined>): Record<string, number> {
  const limit = providerConcurrency(env);
  return Object.fromEntries(keys.map((k) => [k, k === RECORDED_LANE ? RECORDED_LIMIT : limit]));
}

/**
 * What enqueues a SQLite bench's queued trials inside the transaction that stores them (a launch:
 * the bench's id comes from its insert, so any id is taken). Trials enqueued before (a rerun's
 * bench) are no-ops.
 */
export function sqliteTrialJobs(
  candidates: readonly LaneCandidate[],
  concurrency: number,
  env: Record<string, string | undefined>,
): (tx: TxDb, benchId: number) => Promise<void> {
  const providerLimits = laneLimits([...new Set(candidates.map(laneKeyOf))], env);
  return async (tx, benchId) => {
    const queued = await queuedTrialLanes(tx, benchId);
    if (queued.length === 0) return;
    // The judge's provider gets its limit too: the claim counts judged trials against it.
    await SqliteTrialJobQueue.storeJudgeLimitIn(tx, benchId, providerConcurrency(env));
    await SqliteTrialJobQueue.enqueueIn(tx, {
      benchId,
      concurrency: Math.max(1, Math.floor(concurrency)),
      providerLimits,
      trials: queued.map((t) => ({ trialId: t.trialId, providerKey: laneKeyOf(t) })),
    });
  };
}

/**
 * Readies the lanes of a bench whose trials are about to be stored, before their transaction, and
 * returns what enqueues them inside it.
 * @param benchId the bench (on PostgreSQL a launch reserves its id first: `reserveBenchId`; on
 *   SQLite the returned function takes the id the launch's insert gave)
 * @param candidates every candidate of the bench (their lanes are made even if none of their trials is queued)
 * @param concurrency the bench's concurrency (most of its trials claimed at once, over all workers)
 * @param env `BENCHWORK_PROVIDER_CONCURRENCY`: each provider's limit over all workers
 */
export async function prepareTrialJobs(
  db: Db,
  benchId: number,
  candidates: readonly LaneCandidate[],
  concurrency: number,
  env: Record<string, string | undefined>,
): Promise<(tx: TxDb, benchId: number) => Promise<void>> {
  if (!isPostgres(db)) return sqliteTrialJobs(candidates, concurrency, env);
  const queue = await jobQueueOf(db);
  const keys = [...new Set(candidates.map(laneKeyOf))];
  await queue.prepare({ benchId, trials: keys.map((providerKey) => ({ trialId: 0, providerKey })) });
  const providerLimits = laneLimits(keys, env);
  return async (tx, id) => {
    if (id !== benchId) throw new Error(`bench ${id}: its job queues were prepared for bench ${benchId}`);
    // Every queued trial of the bench: those enqueued before (a rerun) are no-ops (job id = trial id).
    const queued = await queuedTrialLanes(tx, id);
    if (queued.length === 0) return;
    // The judge's provider gets its limit too: the claim counts judged trials against it.
    await storeJudgeProviderLimit(pgClientOfTx(tx), id, providerConcurrency(env));
    await queue.enqueue(pgClientOfTx(tx), {
      benchId: id,
      concurrency: Math.max(1, Math.floor(concurrency)),
      providerLimits,
      trials: queued.map((t) => ({ trialId: t.trialId, providerKey: laneKeyOf(t) })),
    });
  };
}

/**
 * Enqueues the open trials that have no job on a SQLite store (a database from before the job
 * queue, or trials stored without enqueueing): each such bench's running-without-job trials go back
 * to queued and every queued one is enqueued, in one transaction per bench.
 * @param o.unqueuedOnly only benches the queue has never seen (the cheap check of every poll)
 * @returns the benches enqueued
 */
export async function enqueueOrphanTrials(db: Db, env: Record<string, string | undefined>, o: { unqueuedOnly?: boolean } = {}): Promise<number[]> {
  if (isPostgres(db)) return [];
  const ids = await benchesWithoutJobs(db, o);
  const done: number[] = [];
  for (const id of ids) {
    const bench = await getBench(db, id);
    if (!bench) continue;
    const enqueue = sqliteTrialJobs(bench.candidates, bench.settings.concurrency, env);
    await transaction(db, async (tx) => {
      await requeueJoblessRunning(tx, id);
      await enqueue(tx, id);
    });
    done.push(id);
  }
  return done;
}
