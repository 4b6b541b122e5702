/**
 * Tables of the trial job queue on SQLite (db/queries/trial-job-queue.ts, the one-machine
 * implementation of lib/bench/trial-jobs.ts; PostgreSQL's is pg-boss with db/schema-pg-queue.ts).
 * SQLite only, so db/schema-pg.test.ts does not compare them. A claim runs in one write
 * transaction that takes the write lock first, which SQLite serialises across every process on the file: the
 * counts it reads are exact, so the bench and provider limits hold however many workers claim.
 * Times are ms since the epoch.
 */
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { benches, trials } from "./schema";

/** A bench's queue settings, written at launch: its concurrency and, once asked, its cancellation. */
export const queueBenches = sqliteTable("queue_benches", {
  benchId: integer("bench_id")
    .primaryKey()
    .references(() => benches.id),
  concurrency: integer("concurrency").notNull(),
  cancelledAt: integer("cancelled_at"),
});

/** A provider's limit on trials claimed at once (all benches, all workers); the latest launch sets it. */
export const queueProviders = sqliteTable("queue_providers", {
  providerKey: text("provider_key").primaryKey(),
  concurrency: integer("concurrency").notNull(),
});

/** A lane: one bench's jobs for one provider (a claim walks the lanes, not every queued job). */
export const queueLanes = sqliteTable(
  "queue_lanes",
  {
    benchId: integer("bench_id")
      .notNull()
      .references(() => benches.id),
    providerKey: text("provider_key").notNull(),
  },
  (t) => [primaryKey({ columns: [t.benchId, t.providerKey] })],
);

/**
 * One job per enqueued trial. `queued` → `claimed` (by `worker_id`, with a fresh `token`, until
 * `expires_at`) → `done`; an expired claim goes back to `queued` or, after the last delivery, to
 * `failed`; a cancelled bench's queued jobs become `cancelled`. `deliveries` counts claims.
 */
export const trialJobs = sqliteTable(
  "trial_jobs",
  {
    trialId: integer("trial_id")
      .primaryKey()
      .references(() => trials.id),
    benchId: integer("bench_id").notNull(),
    providerKey: text("provider_key").notNull(),
    state: text("state", { enum: ["queued", "claimed", "done", "failed", "cancelled"] }).notNull(),
    deliveries: integer("deliveries").notNull().default(0),
    workerId: text("worker_id"),
    token: text("token"),
    expiresAt: integer("expires_at"),
  },
  // One index: every read of the queue starts from a state (a lane's queued jobs; the claimed
  // ones, at most the benches' concurrency, for counts, expiry and heartbeats). Each index is
  // rewritten by every claim and every stored result: an index on (state, provider_key) and one on
  // worker_id cost ~4.5 of the ~23 pages a store-and-claim wrote to the WAL at 50 ms latency
  // (bench/runner.ts; issue #5's ≤ 5 KB written per trial) and served no read the lane index does
  // not (EXPLAIN QUERY PLAN: "USING INDEX trial_jobs_lane (state=?)").
  (t) => [index("trial_jobs_lane").on(t.state, t.benchId, t.providerKey, t.trialId)],
);
