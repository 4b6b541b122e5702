/**
 * Tables of the trial job queue on PostgreSQL (db/pg/trial-job-queue.ts), next to pg-boss's own
 * schema. PostgreSQL only: the SQLite queue keeps its state in `trials` and `workers`. pg-boss
 * delivers each trial's job (at least once); these tables cap how many trials run at once per
 * bench and per provider across every worker process, and name the one current claim of a trial.
 */
import { bigint, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { benches, trials } from "./schema-pg";

/** A bench's queue settings, written at launch: its concurrency and, once asked, its cancellation. */
export const queueBenches = pgTable("queue_benches", {
  benchId: integer("bench_id")
    .primaryKey()
    .references(() => benches.id),
  concurrency: integer("concurrency").notNull(),
  cancelledAt: bigint("cancelled_at", { mode: "number" }),
});

/** A provider's limit on trials in flight (all benches, all workers). Keys are the caller's (e.g. `openai`, a base URL). */
export const queueProviders = pgTable("queue_providers", {
  providerKey: text("provider_key").primaryKey(),
  concurrency: integer("concurrency").notNull(),
});

/** A lane: the pg-boss queue holding one bench's trials for one provider (`name` is the pg-boss queue name). */
export const queueLanes = pgTable(
  "queue_lanes",
  {
    name: text("name").primaryKey(),
    benchId: integer("bench_id")
      .notNull()
      .references(() => benches.id),
    providerKey: text("provider_key").notNull(),
  },
  (t) => [index("queue_lanes_bench").on(t.benchId)],
);

/**
 * The current claim of a running trial: at most one per trial (primary key). `token` changes with
 * every claim, so a result is stored only by the worker holding the current one. Rows are counted
 * (under advisory locks) to enforce the bench and provider limits. Times in ms since the epoch.
 */
export const trialClaims = pgTable(
  "trial_claims",
  {
    trialId: integer("trial_id")
      .primaryKey()
      .references(() => trials.id),
    benchId: integer("bench_id").notNull(),
    providerKey: text("provider_key").notNull(),
    lane: text("lane").notNull(),
    jobId: uuid("job_id").notNull(),
    workerId: text("worker_id").notNull(),
    token: uuid("token").notNull(),
    delivery: integer("delivery").notNull(),
    claimedAt: bigint("claimed_at", { mode: "number" }).notNull(),
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
  },
  (t) => [index("trial_claims_bench").on(t.benchId), index("trial_claims_provider").on(t.providerKey), index("trial_claims_expires").on(t.expiresAt)],
);
