/**
 * Rows the PostgreSQL trial job queue and its job worker need (issue 20): the bench's next id
 * (reserved before the launch transaction, whose job queues are made first), its queued trials with
 * their candidates (to name each trial's provider lane inside the transaction), the rows of claimed
 * trials, and the benches to cancel or finalize. Written once for both stores.
 */
import { and, eq, inArray, isNotNull, notExists, sql, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { isPostgres } from "../dialect";
import { selectIds } from "./prepared-ids";
import { benchCandidates, benchCases, benches, trials } from "../schema";
import type { ClaimedTrial } from "@/lib/bench/queue";
import type { ModelConfig } from "@/lib/runtime/model-config";

/**
 * Reserves the next bench id on PostgreSQL (`nextval` of the benches' identity sequence): the launch
 * then inserts the bench with it. A rolled-back launch only leaves a gap in the ids.
 * @throws on SQLite (its launch takes the id from the insert)
 */
export async function reserveBenchId(db: Db): Promise<number> {
  if (!isPostgres(db)) throw new Error("reserveBenchId: PostgreSQL only");
  // The store is typed as SQLite's handle (db/pg/store.ts); on PostgreSQL it is drizzle's node-postgres one.
  const pgDb = db as unknown as { execute: (q: SQL) => Promise<{ rows: { id: number }[] }> };
  const { rows } = await pgDb.execute(sql`SELECT nextval(pg_get_serial_sequence('benches', 'id'))::int AS id`);
  return rows[0].id;
}

/** A queued trial of a bench with its candidate's kind and model (what decides its provider lane). */
export interface QueuedTrialLane {
  trialId: number;
  kind: "model" | "recorded";
  modelConfig: ModelConfig | null;
}

/** The bench's queued trials, in id order, with their candidates' kind and model configuration. */
export async function queuedTrialLanes(db: Db, benchId: number): Promise<QueuedTrialLane[]> {
  const rows = await db
    .select({ trialId: trials.id, kind: benchCandidates.kind, modelConfig: benchCandidates.modelConfig })
    .from(trials)
    .innerJoin(benchCandidates, eq(benchCandidates.id, trials.candidateId))
    .where(and(eq(trials.benchId, benchId), eq(trials.status, "queued")))
    .orderBy(trials.id);
  return rows.map((r) => ({ trialId: r.trialId, kind: r.kind, modelConfig: r.modelConfig ? (JSON.parse(r.modelConfig) as ModelConfig) : null }));
}

/** The columns of a claimed trial as an executor runs it (select from `trials` joined to `bench_cases`). */
export const CLAIMED_TRIAL_COLUMNS = {
  id: trials.id,
  benchId: trials.benchId,
  candidateId: trials.candidateId,
  benchCaseId: trials.benchCaseId,
  caseRevisionId: benchCases.caseRevisionId,
  repeat: trials.repeat,
  attempts: trials.attempts,
};

/**
 * The rows of claimed trials as an executor runs them (candidate, bench case, its case revision,
 * repeat), in one query. Ids without a row are left out.
 */
export async function claimedTrialRows(db: Db, trialIds: readonly number[]): Promise<ClaimedTrial[]> {
  if (trialIds.length === 0) return [];
  return db
    .select(CLAIMED_TRIAL_COLUMNS)
    .from(trials)
    .innerJoin(benchCases, eq(benchCases.id, trials.benchCaseId))
    .where(inArray(trials.id, [...trialIds]));
}

const OPEN_BENCH = inArray(benches.status, ["queued", "running"]);

/** Open benches (queued or running) whose cancellation was asked, oldest first. */
export async function benchesToCancel(db: Db): Promise<number[]> {
  return selectIds(db, "benchesToCancel", () =>
    db
      .select({ id: benches.id })
      .from(benches)
      .where(and(OPEN_BENCH, isNotNull(benches.cancelRequestedAt)))
      .orderBy(benches.id),
  );
}

/** Open benches none of whose trials is queued or running: what is left is to finalize them. */
export async function benchesToFinalize(db: Db): Promise<number[]> {
  return selectIds(db, "benchesToFinalize", () =>
    db
      .select({ id: benches.id })
      .from(benches)
      .where(
        and(
          OPEN_BENCH,
          notExists(
            db
              .select({ one: sql`1` })
              .from(trials)
              .where(and(eq(trials.benchId, benches.id), inArray(trials.status, ["queued", "running"]))),
          ),
        ),
      )
      .orderBy(benches.id),
  );
}
