/**
 * Reads and writes of reruns inside a finished bench (issue #16 §3): the trials a candidate has
 * per bench case, the errored trials not rerun yet, and adding rerun trials while reopening the
 * bench for the worker — in one transaction that re-checks the bench is still finished.
 */
import { and, eq, inArray, max, sql } from "drizzle-orm";
import type { Db } from "../client";
import { transaction, type TxDb } from "../transaction";
import { countWhere } from "../dialect";
import { first } from "../rows";
import { benchCases, benches, trials } from "../schema";
import { recordActivityTx } from "./activity";
import type { Author } from "@/lib/audit/author";
import { NOT_RERUN } from "./rerun-sql";
import type { ErroredTrial, RerunTrial, SideTrials } from "@/lib/bench/rerun/select";
import { LibraryError } from "@/lib/library/errors";
import type { BenchSettings } from "./benches";
import { launchRunFromTrials } from "./launch-run";

/**
 * Per "candidateId|benchCaseId": how many trials the candidate has in that bench case (an errored
 * trial that was rerun is not counted: its rerun is) and the highest repeat index (counting all).
 */
export async function benchSideTrials(db: Db, benchId: number): Promise<Map<string, SideTrials>> {
  const rows = await db
    .select({ c: trials.candidateId, bc: trials.benchCaseId, count: countWhere(NOT_RERUN), maxRepeat: max(trials.repeat) })
    .from(trials)
    .where(eq(trials.benchId, benchId))
    .groupBy(trials.candidateId, trials.benchCaseId);
  return new Map(rows.map((r) => [`${r.c}|${r.bc}`, { count: r.count, maxRepeat: r.maxRepeat ?? 0 }]));
}

/** What a candidate's trials of one bench case cost its model (trials.cost_usd; USD), see {@link benchCaseCosts}. */
export interface CaseModelCost {
  /** Summed over its trials that finished with an answer, and how many they were. */
  doneUsd: number;
  done: number;
  /** Summed over all its trials (an errored one may have spent on its calls too). */
  allUsd: number;
}

/**
 * Per "candidateId|benchCaseId": what the candidate's model cost on that case of bench `benchId`
 * (a rerun's cost per trial is measured per case: one case's answers can cost many times another's).
 */
export async function benchCaseCosts(db: Db, benchId: number): Promise<Map<string, CaseModelCost>> {
  const cost = sql`coalesce(${trials.costUsd}, 0)`;
  const rows = await db
    .select({
      c: trials.candidateId,
      bc: trials.benchCaseId,
      doneUsd: sql<number>`coalesce(sum(CASE WHEN ${trials.status} = 'done' THEN ${cost} ELSE 0 END), 0)`.mapWith(Number),
      done: countWhere(sql`${trials.status} = 'done'`),
      allUsd: sql<number>`coalesce(sum(${cost}), 0)`.mapWith(Number),
    })
    .from(trials)
    .where(eq(trials.benchId, benchId))
    .groupBy(trials.candidateId, trials.benchCaseId);
  return new Map(rows.map((r) => [`${r.c}|${r.bc}`, { doneUsd: r.doneUsd, done: r.done, allUsd: r.allUsd }]));
}

/** The errored trials of a bench in id order, and the ids among them that a later trial already reruns. */
export async function benchErroredTrials(db: Db, benchId: number): Promise<{ errored: ErroredTrial[]; rerunAlready: Set<number> }> {
  const errored = await db
    .select({ id: trials.id, candidateId: trials.candidateId, benchCaseId: trials.benchCaseId })
    .from(trials)
    .where(and(eq(trials.benchId, benchId), eq(trials.status, "error")))
    .orderBy(trials.id);
  if (errored.length === 0) return { errored, rerunAlready: new Set() };
  // Through the partial index on rerun_of: the reruns of these errored trials only (a condition on the
  // rerun's bench here made the planner read every trial of the bench instead: 20,000 rows on every
  // render of a large bench's page). A rerun is always added to its trial's bench; checked below all the same.
  const rerun = (
    await db
      .select({ id: trials.rerunOf, benchId: trials.benchId, status: trials.status })
      .from(trials)
      .where(
        inArray(
          trials.rerunOf,
          db
            .select({ id: trials.id })
            .from(trials)
            .where(and(eq(trials.benchId, benchId), eq(trials.status, "error"))),
        ),
      )
  )
    // A skipped rerun (cancelled, or kept from starting by the spend cap) reran nothing: its errored trial is offered again (NOT_RERUN).
    .filter((r) => r.benchId === benchId && r.status !== "skipped");
  return { errored, rerunAlready: new Set(rerun.map((r) => r.id!)) };
}

/** The included bench case of each case revision of a bench (regressions name case revisions). */
export async function benchCaseIdsByRevision(
  db: Db,
  benchId: number,
): Promise<Map<number, { benchCaseId: number; caseId: number; caseKey: string; source: string }>> {
  const rows = await db
    .select({ id: benchCases.id, rev: benchCases.caseRevisionId, caseId: benchCases.caseId, caseKey: benchCases.caseKey, source: benchCases.source })
    .from(benchCases)
    .where(and(eq(benchCases.benchId, benchId), eq(benchCases.included, true)))
    .orderBy(benchCases.position);
  const out = new Map<number, { benchCaseId: number; caseId: number; caseKey: string; source: string }>();
  for (const r of rows) if (!out.has(r.rev)) out.set(r.rev, { benchCaseId: r.id, caseId: r.caseId, caseKey: r.caseKey, source: r.source });
  return out;
}

/** The trial an errored trial was rerun as, and the trial a rerun reruns (for the attempt history). */
export async function trialRerunLinks(
  db: Db,
  trialId: number,
): Promise<{ rerunOf: { id: number; error: string | null } | null; rerunAs: { id: number; status: string }[] }> {
  const of = await first(
    db
      .select({ id: trials.id, error: trials.error })
      .from(trials)
      .where(eq(trials.id, sql`(SELECT rr.rerun_of FROM trials rr WHERE rr.id = ${trialId})`)),
  );
  const as = await db.select({ id: trials.id, status: trials.status }).from(trials).where(eq(trials.rerunOf, trialId)).orderBy(trials.id);
  return { rerunOf: of ?? null, rerunAs: as };
}

/**
 * Adds rerun trials to a finished bench and reopens it (status `queued`, start time now, the trials
 * it had as the rerun's base, end time and cancel request cleared, trial count raised) so the worker
 * runs them and finalizes the bench again. One transaction: the bench's status is re-read inside it,
 * and the activity row (issue 19: who started the rerun; none without an author, e.g. the CLI on a
 * local database) commits with it.
 * @param what the activity line's detail prefix ("rerun errored trials", "confirm suspected regressions")
 * @param onQueued runs inside the transaction after the trials are stored (PostgreSQL: enqueues their jobs)
 * @throws LibraryError `not_found` for an unknown bench; `not_allowed` when it is no longer
 *   finished (a second click that raced the first) or `trials` is empty
 */
export async function addRerunTrials(
  db: Db,
  benchId: number,
  planned: readonly RerunTrial[],
  author?: Author | null,
  what = "rerun",
  onQueued?: (tx: TxDb, benchId: number) => Promise<void>,
): Promise<number> {
  return transaction(db, async (tx) => {
    const b = await first(
      tx.select({ status: benches.status, systemId: benches.systemId, settings: benches.settings }).from(benches).where(eq(benches.id, benchId)),
    );
    if (!b) throw new LibraryError("not_found", `Bench #${benchId} does not exist.`);
    if (b.status !== "finished") throw new LibraryError("not_allowed", `Bench #${benchId} is ${b.status}, not finished: nothing was added.`);
    if (planned.length === 0) throw new LibraryError("not_allowed", `Bench #${benchId}: nothing to rerun.`);
    // The launch run's times, read once as the first rerun reopens the bench (its launch trials have all ended):
    // the progress poll reads them from here each second instead of from every trial (issue #20). A bench
    // reopened before they were kept gets them at its next rerun.
    const settings = JSON.parse(b.settings) as BenchSettings;
    settings.launchRun ??= await launchRunFromTrials(tx, benchId);
    // In chunks: one statement's parameters stay under both stores' limits.
    for (let i = 0; i < planned.length; i += 500)
      await tx.insert(trials).values(
        planned.slice(i, i + 500).map((t) => ({
          benchId,
          candidateId: t.candidateId,
          benchCaseId: t.benchCaseId,
          repeat: t.repeat,
          status: "queued" as const,
          rerun: t.rerun,
          rerunOf: t.rerunOf,
        })),
      );
    // The rerun is timed from now over its own trials (the progress's elapsed and time left), not from the launch over all:
    // rerun_base keeps how many trials the bench had (both stores read trial_count before this update's increment).
    await tx
      .update(benches)
      .set({
        status: "queued",
        settings: JSON.stringify(settings),
        startedAt: Date.now(),
        rerunBase: sql`${benches.trialCount}`,
        finishedAt: null,
        cancelRequestedAt: null,
        trialCount: sql`${benches.trialCount} + ${planned.length}`,
      })
      .where(eq(benches.id, benchId));
    await recordActivityTx(tx, author, {
      action: "bench.rerun",
      subjectType: "bench",
      subjectId: benchId,
      systemId: b.systemId,
      detail: `${what}: ${planned.length} trial${planned.length === 1 ? "" : "s"}`,
    });
    // PostgreSQL: the new trials' jobs commit with them (server/bench/trial-jobs.ts).
    await onQueued?.(tx, benchId);
    return planned.length;
  });
}
