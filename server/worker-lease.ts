/**
 * `BENCHWORK_LEASE_MS` (issue 20): how long a job worker's claim on a trial lasts without a
 * heartbeat. When a worker dies (kill -9, a lost host), its trials go back to the queue this long
 * after its last heartbeat; a live worker renews its claims every quarter lease. Short leases bring
 * a dead worker's trials back sooner, at the cost of a re-run when a busy worker misses its
 * heartbeats (the result is still stored once).
 */

/** Shortest and longest lease accepted, in ms. */
export const LEASE_MS_RANGE = { min: 1_000, max: 3_600_000 } as const;

/**
 * `BENCHWORK_LEASE_MS` in ms (unset or blank: undefined, the queue's default of 60 s).
 * @throws {RangeError} naming the variable when it is not a whole number from 1,000 to 3,600,000
 */
export function workerLeaseMs(env: Record<string, string | undefined>): number | undefined {
  const raw = env.BENCHWORK_LEASE_MS;
  if (raw === undefined || raw.trim() === "") return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < LEASE_MS_RANGE.min || n > LEASE_MS_RANGE.max)
    throw new RangeError(`BENCHWORK_LEASE_MS: expected a whole number of ms from ${LEASE_MS_RANGE.min} to ${LEASE_MS_RANGE.max}, got "${raw}"`);
  return n;
}
