/**
 * An index on pg-boss's job table in the order its fetch takes a lane's queued jobs (issue 20).
 *
 * pg-boss 10's `fetchNextJob` reads `WHERE name = $1 AND state < 'active' ORDER BY priority desc,
 * created_on, id LIMIT n FOR UPDATE SKIP LOCKED`; its own index for it, `(name, start_after) INCLUDE
 * (…)`, cannot give that order, so every claim read and sorted the lane's whole backlog (EXPLAIN
 * ANALYZE at 20,000 queued jobs: 18–27 ms a claim; with this index 0.1 ms; a known limit,
 * timgit/pg-boss#228). Made on the partitioned table, it is built on every lane (partition) too,
 * those pg-boss attaches later included.
 */
import type pg from "pg";
import { withPgTransaction } from "./client";

/** The index's name in pg-boss's schema. */
export const FETCH_ORDER_INDEX = "benchwork_job_fetch_order";

/** How long the first build may wait for the job table's lock before it gives up (a worker's start must not hang). */
const LOCK_TIMEOUT = "10s";

const present = async (q: Pick<pg.ClientBase, "query">) =>
  (await q.query<{ present: boolean }>(`SELECT to_regclass('pgboss.${FETCH_ORDER_INDEX}') IS NOT NULL AS present`)).rows[0].present;

/**
 * Creates {@link FETCH_ORDER_INDEX} unless it exists. Looking costs no lock: `CREATE INDEX IF NOT
 * EXISTS` would take a share lock on the job table and every lane before it looks, waiting behind
 * every open store and holding up every claim, at each worker's start. When it is missing, the first
 * worker builds it under a transaction-scoped advisory lock (workers starting together wait for it,
 * then find it), with a lock timeout; the build scans the job table once (jobs stay there 12 h after
 * they end) and holds its lock meanwhile.
 * @returns whether this call built it
 * @throws PostgreSQL's error (lock timeout; not the job table's owner): the queue works without the
 *   index, only its claims are slower, so callers log it and go on
 */
export async function ensureFetchOrderIndex(pool: pg.Pool): Promise<boolean> {
  if (await present(pool)) return false;
  return withPgTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended('benchwork:pgboss-fetch-index', 0))");
    if (await present(client)) return false;
    await client.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
    await client.query(`CREATE INDEX IF NOT EXISTS ${FETCH_ORDER_INDEX} ON pgboss.job (name, priority DESC, created_on, id) WHERE state < 'active'`);
    return true;
  });
}
