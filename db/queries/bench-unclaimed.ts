/**
 * Whether a live worker is at work on another bench (issue 20): a bench that waits for its first
 * claim while a worker runs other benches' trials is queued behind them (bench concurrency, the
 * provider's limit), not left without a worker. Read from the job queue's claims (PostgreSQL's
 * `trial_claims`, SQLite's claimed `trial_jobs`): a claim is live while its worker renews it, i.e.
 * it has more than half a lease left (lib/bench/stalled-claims.ts isStalled); a dead worker's claims
 * on another bench do not count.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../client";
import { isPostgres, rawRows } from "../dialect";

/**
 * True when a worker holds a live claim on a trial of a bench other than `benchId`.
 * @param now ms since the epoch
 * @param leaseMs the workers' lease (`BENCHWORK_WORKER_LEASE_MS`)
 */
export async function liveClaimElsewhere(db: Db, benchId: number, now: number, leaseMs: number): Promise<boolean> {
  const liveAfter = now + leaseMs / 2;
  const rows = isPostgres(db)
    ? await rawRows(db, sql`SELECT 1 AS one FROM trial_claims WHERE expires_at >= ${liveAfter} AND bench_id <> ${benchId} LIMIT 1`)
    : await rawRows(db, sql`SELECT 1 AS one FROM trial_jobs WHERE state = 'claimed' AND expires_at >= ${liveAfter} AND bench_id <> ${benchId} LIMIT 1`);
  return rows.length > 0;
}
