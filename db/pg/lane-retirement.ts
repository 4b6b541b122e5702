/**
 * Retiring the lanes of ended benches on PostgreSQL (issue 20).
 *
 * Each lane (bench × provider) is a pg-boss queue, and pg-boss 10 makes each queue a partition of
 * its job table: a table and 6 indexes (7 with Benchwork's fetch index). Kept forever they pile up, one or two per bench, and every
 * statement pg-boss runs over the whole job table (its maintenance's archive, its expiry) opens and
 * locks each of them: measured on PostgreSQL 15, 1,000 lanes made its archive 350–480 ms and 7,000
 * locks, and at 5,000 it failed with "out of shared memory" (so nothing was archived any more).
 * Once a bench has ended, its jobs are no longer needed (`trials` holds every result), so its lanes
 * are dropped: their job tables, then pg-boss's `delete_queue` for the rest of its bookkeeping.
 *
 * Dropping a partition takes an exclusive lock on the job table, so every claim and store waits
 * while it does: a retirement waits at most {@link LOCK_TIMEOUT} for it (then gives up, to try again
 * later) and drops a bounded batch of lanes at a time.
 */
import pg from "pg";
import { benchLockKey } from "./bench-lock";
import { withPgTransaction } from "./client";

const { escapeIdentifier } = pg;

/** What one {@link retireEndedLanes} did. */
export interface LaneRetirement {
  /** Lanes dropped. */
  retired: number;
  /** Whether ended benches' lanes are left to retire (more than the batch, or it gave up for the lock). */
  more: boolean;
  /** Whether it gave up because the job table stayed locked past the timeout (nothing was dropped). */
  busy: boolean;
}

/** The longest a retirement waits for the job table's lock; claims and stores queue behind it meanwhile. */
const LOCK_TIMEOUT = "250ms";

/** SQLSTATE of a lock wait that ran past `lock_timeout`. */
const LOCK_NOT_AVAILABLE = "55P03";

/**
 * Drops at most `max` lanes of ended benches (status neither queued nor running, no trial claimed),
 * in one transaction: their pg-boss queues and job tables and their `queue_lanes` rows. A bench
 * whose lock another transaction holds (a rerun enqueueing it) is left alone, and each bench is
 * checked again under its lock, so a lane a launch has seen is never dropped under it.
 * @param max lanes per call (whole, ≥ 1): each takes ~8 locks and a few ms of the job table's lock
 * @returns how many were dropped and whether more are left ({@link LaneRetirement})
 * @throws PostgreSQL's errors other than a lock timeout (which returns `busy`)
 */
export async function retireEndedLanes(pool: pg.Pool, max = 50): Promise<LaneRetirement> {
  if (!Number.isInteger(max) || max < 1) throw new Error(`lane retirement: max must be a whole number ≥ 1 (got ${max})`);
  try {
    return await withPgTransaction(pool, async (client) => {
      await client.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
      const ended = `FROM queue_lanes l JOIN benches b ON b.id = l.bench_id
        WHERE b.status NOT IN ('queued', 'running') AND NOT EXISTS (SELECT 1 FROM trial_claims c WHERE c.bench_id = l.bench_id)`;
      const candidates = await client.query<{ name: string; benchId: number }>(
        `SELECT l.name, l.bench_id AS "benchId" ${ended} ORDER BY l.bench_id, l.name LIMIT $1`,
        [max + 1],
      );
      if (candidates.rows.length === 0) return { retired: 0, more: false, busy: false };
      const batch = candidates.rows.slice(0, max);
      // Try-locks never wait; a statement of their own, so the check below reads after them.
      const locked = await client.query<{ id: number }>(`SELECT id FROM unnest($1::int[]) AS id WHERE pg_try_advisory_xact_lock(${benchLockKey("id")})`, [
        [...new Set(batch.map((l) => l.benchId))],
      ]);
      const lanes = await client.query<{ name: string }>(`SELECT l.name ${ended} AND l.name = ANY($1) AND l.bench_id = ANY($2)`, [
        batch.map((l) => l.name),
        locked.rows.map((r) => r.id),
      ]);
      const names = lanes.rows.map((r) => r.name);
      if (names.length) {
        // The job tables first: each one's foreign key to pg-boss's queue table is ON DELETE RESTRICT,
        // checked at once, so pg-boss's delete_queue (queue row, then table) fails on a lane with jobs.
        const tables = await client.query<{ partition: string }>(
          "SELECT partition_name AS partition FROM pgboss.queue WHERE name = ANY($1) AND partition_name IS NOT NULL",
          [names],
        );
        if (tables.rows.length) await client.query(`DROP TABLE IF EXISTS ${tables.rows.map((t) => `pgboss.${escapeIdentifier(t.partition)}`).join(", ")}`);
        await client.query("SELECT pgboss.delete_queue(name) FROM unnest($1::text[]) AS name", [names]);
        await client.query("DELETE FROM queue_lanes WHERE name = ANY($1)", [names]);
      }
      return { retired: names.length, more: candidates.rows.length > max, busy: false };
    });
  } catch (e) {
    if ((e as { code?: string }).code === LOCK_NOT_AVAILABLE) return { retired: 0, more: true, busy: true };
    throw e;
  }
}
