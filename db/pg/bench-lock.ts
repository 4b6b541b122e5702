/**
 * The advisory lock of a bench on PostgreSQL. Claims try it (a lane another claimer serves is
 * skipped), a cancellation and a launch's enqueue wait for it, and lane retirement tries it: so a
 * claim's counts, a cancellation, a rerun's enqueue and a retirement never interleave for one bench.
 */

/**
 * The lock's key as SQL over the bench id parameter `param` (e.g. `$1`), for
 * `pg_advisory_xact_lock(…)` / `pg_try_advisory_xact_lock(…)`.
 */
export function benchLockKey(param: string): string {
  return `hashtextextended('benchwork:bench:' || ${param}::text, 0)`;
}
