/**
 * Benches on PostgreSQL (issue 20): every place that stores queued trials (a launch, a confirm or
 * error rerun) enqueues their pg-boss jobs in the same transaction. The queue's lanes (pg-boss
 * queues, made with DDL of their own) are prepared before the transaction, so a launch reserves its
 * bench id first. SQLite stores no jobs: its worker claims from the `trials` table itself.
 */
import type pg from "pg";
import type { Db } from "@/db/client";
import { isPostgres } from "@/db/dialect";
import { pgClientOfTx } from "@/db/pg/tx-client";
import { PgTrialJobQueue } from "@/db/pg/trial-job-queue";
import { storeJudgeProviderLimit } from "@/db/pg/judge-slots";
import type { TxDb } from "@/db/transaction";
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

/**
 * Readies the lanes of a bench whose trials are about to be stored, before their transaction, and
 * returns what enqueues them inside it; null on SQLite (nothing to enqueue).
 * @param benchId the bench (a launch reserves its id first: `reserveBenchId`)
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
): Promise<((tx: TxDb, benchId: number) => Promise<void>) | null> {
  if (!isPostgres(db)) return null;
  const queue = await jobQueueOf(db);
  const keys = [...new Set(candidates.map(laneKeyOf))];
  await queue.prepare({ benchId, trials: keys.map((providerKey) => ({ trialId: 0, providerKey })) });
  const limit = providerConcurrency(env);
  const providerLimits = Object.fromEntries(keys.map((k) => [k, k === RECORDED_LANE ? RECORDED_LIMIT : limit]));
  return async (tx, id) => {
    if (id !== benchId) throw new Error(`bench ${id}: its job queues were prepared for bench ${benchId}`);
    // Every queued trial of the bench: those enqueued before (a rerun) are no-ops (job id = trial id).
    const queued = await queuedTrialLanes(tx, id);
    if (queued.length === 0) return;
    // The judge's provider gets its limit too: the claim counts judged trials against it.
    await storeJudgeProviderLimit(pgClientOfTx(tx), id, limit);
    await queue.enqueue(pgClientOfTx(tx), {
      benchId: id,
      concurrency: Math.max(1, Math.floor(concurrency)),
      providerLimits,
      trials: queued.map((t) => ({ trialId: t.trialId, providerKey: laneKeyOf(t) })),
    });
  };
}
