/**
 * Trials held by a worker that stopped responding (issue 20). On PostgreSQL a job worker's claims
 * last a lease (`BENCHWORK_WORKER_LEASE_MS`, default 60 s) that it renews every quarter of it; when
 * the worker dies its trials stay `running` until the lease runs out, then run again elsewhere.
 * Progress says so instead of a "claimed by workers" count that sits still for the whole lease.
 */

/** Claims whose worker missed its renewals: how many, and when the last of them expires. */
export interface StalledClaims {
  /** Trials held by such claims. */
  trials: number;
  /** When the last of those claims expires (ms since the epoch); the trials run again from then on. */
  runAgainAt: number;
}

/**
 * Whether a claim expiring at `expiresAt` has missed its renewals: a live worker renews every
 * quarter lease, so its claims always have more than half a lease left.
 */
export function isStalled(expiresAt: number, now: number, leaseMs: number): boolean {
  return expiresAt - now < leaseMs / 2;
}

/**
 * The progress words for stalled claims, e.g. "8 held by a worker that stopped responding — they
 * run again by 03:42:10".
 * @param clock formats a time (ms since the epoch) for the reader (the browser's or the terminal's local time)
 */
export function stalledText(s: StalledClaims, now: number, clock: (ms: number) => string): string {
  const held = `${s.trials} held by a worker that stopped responding`;
  const they = s.trials === 1 ? "it runs" : "they run";
  return s.runAgainAt > now ? `${held} — ${they} again by ${clock(s.runAgainAt)}` : `${held} — ${they} again when a worker next looks for work`;
}

/** A time as HH:MM:SS in the local time zone (24 h). */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");
}
