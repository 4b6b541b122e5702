/**
 * The lease progress assumes when it tells stalled claims apart (lib/bench/stalled-claims.ts): this
 * process's `BENCHWORK_WORKER_LEASE_MS` (set the same on every host), else the queue's default. A
 * value the workers would refuse (they stop with a message naming it) falls back to the default here.
 */
import { DEFAULT_LEASE_MS } from "@/db/queries/stalled-claims";

/** `{ leaseMs }` for getBenchProgress. */
export function progressLease(env: Record<string, string | undefined> = process.env): { leaseMs: number } {
  const n = Number(env.BENCHWORK_WORKER_LEASE_MS?.trim() || NaN);
  return { leaseMs: Number.isInteger(n) && n >= 1_000 && n <= 3_600_000 ? n : DEFAULT_LEASE_MS };
}
