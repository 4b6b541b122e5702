/**
 * Trials of a bench held by claims their worker stopped renewing (PostgreSQL's job queue,
 * `trial_claims`; lib/bench/stalled-claims.ts says why and how progress shows them). SQLite's worker
 * keeps no leases of this kind: none there.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../client";
import { isPostgres, rawRows } from "../dialect";
import type { StalledClaims } from "@/lib/bench/stalled-claims";

/** The job queue's default lease in ms (db/pg/trial-job-queue.ts), when the reader knows no other. */
export const DEFAULT_LEASE_MS = 60_000;

/**
 * Claims of bench `benchId` with less than half a lease left (lib/bench/stalled-claims.ts isStalled).
 * @param now ms since the epoch
 * @param leaseMs the workers' lease (`BENCHWORK_WORKER_LEASE_MS`)
 * @returns null when there is none (and always on SQLite)
 */
export async function stalledClaims(db: Db, benchId: number, now: number, leaseMs: number): Promise<StalledClaims | null> {
  if (!isPostgres(db)) return null;
  const [row] = await rawRows<{ n: number; at: number | null }>(
    db,
    sql`SELECT count(*)::int AS n, max(expires_at)::float8 AS at FROM trial_claims WHERE bench_id = ${benchId} AND expires_at < ${now + leaseMs / 2}`,
  );
  return row && row.n > 0 && row.at !== null ? { trials: row.n, runAgainAt: Number(row.at) } : null;
}
