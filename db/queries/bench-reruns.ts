/**
 * Reads and writes of reruns inside a finished bench (issue #16 §3): the trials a candidate has
 * per bench case, the errored trials not rerun yet, and adding rerun trials while reopening the
 * bench for the worker — in one transaction that re-checks the bench is still finished.
 */
import type { Db } from "../client";
import { writeTransaction } from "../write-transaction";
import { recordActivityTx } from "./activity";
import type { Author } from "@/lib/audit/author";
import { NOT_RERUN } from "./rerun-sql";
import type { ErroredTrial, RerunTrial, SideTrials } from "@/lib/bench/rerun/select";
import { LibraryError } from "@/lib/library/errors";

/**
 * Per "candidateId|benchCaseId": how many trials the candidate has in that bench case (an errored
 * trial that was rerun is not counted: its rerun is) and the highest repeat index (counting all).
 */
export function benchSideTrials(db: Db, benchId: number): Map<string, SideTrials> {
  const rows = db.$client
    .prepare(
      `SELECT t.candidate_id AS c, t.bench_case_id AS bc, sum(${NOT_RERUN}) AS count, max(t.repeat) AS maxRepeat
       FROM trials t WHERE t.bench_id = ? GROUP BY t.candidate_id, t.bench_case_id`,
    )
    .all(benchId) as { c: number; bc: number; count: number; maxRepeat: number }[];
  return new Map(rows.map((r) => [`${r.c}|${r.bc}`, { count: r.count, maxRepeat: r.maxRepeat }]));
}

/** The errored trials of a bench in id order, and the ids among them that a later trial already reruns. */
export function benchErroredTrials(db: Db, benchId: number): { errored: ErroredTrial[]; rerunAlready: Set<number> } {
  const errored = db.$client
    .prepare("SELECT id, candidate_id AS candidateId, bench_case_id AS benchCaseId FROM trials WHERE bench_id = ? AND status = 'error' ORDER BY id")
    .all(benchId) as ErroredTrial[];
  const rerun = db.$client.prepare("SELECT rerun_of AS id FROM trials WHERE bench_id = ? AND rerun_of IS NOT NULL").all(benchId) as { id: number }[];
  return { errored, rerunAlready: new Set(rerun.map((r) => r.id)) };
}

/** The included bench case of each case revision of a bench (regressions name case revisions). */
export function benchCaseIdsByRevision(db: Db, benchId: number): Map<number, { benchCaseId: number; caseId: number; caseKey: string; source: string }> {
  const rows = db.$client
    .prepare(
      "SELECT id, case_revision_id AS rev, case_id AS caseId, case_key AS caseKey, source FROM bench_cases WHERE bench_id = ? AND included = 1 ORDER BY position",
    )
    .all(benchId) as { id: number; rev: number; caseId: number; caseKey: string; source: string }[];
  const out = new Map<number, { benchCaseId: number; caseId: number; caseKey: string; source: string }>();
  for (const r of rows) if (!out.has(r.rev)) out.set(r.rev, { benchCaseId: r.id, caseId: r.caseId, caseKey: r.caseKey, source: r.source });
  return out;
}

/** The trial an errored trial was rerun as, and the trial a rerun reruns (for the attempt history). */
export function trialRerunLinks(db: Db, trialId: number): { rerunOf: { id: number; error: string | null } | null; rerunAs: { id: number; status: string }[] } {
  const of = db.$client.prepare("SELECT o.id AS id, o.error AS error FROM trials t JOIN trials o ON o.id = t.rerun_of WHERE t.id = ?").get(trialId) as
    { id: number; error: string | null } | undefined;
  const as = db.$client.prepare("SELECT id, status FROM trials WHERE rerun_of = ? ORDER BY id").all(trialId) as { id: number; status: string }[];
  return { rerunOf: of ?? null, rerunAs: as };
}

/**
 * Adds rerun trials to a finished bench and reopens it (status `queued`, start time now, the trials
 * it had as the rerun's base, end time and cancel request cleared, trial count raised) so the worker
 * runs them and finalizes the bench again. One transaction: the bench's status is re-read inside it,
 * and the activity row (issue 19: who started the rerun; none without an author, e.g. the CLI on a
 * local database) commits with it.
 * @param what the activity line's detail prefix ("rerun errored trials", "confirm suspected regressions")
 * @throws LibraryError `not_found` for an unknown bench; `not_allowed` when it is no longer
 *   finished (a second click that raced the first) or `trials` is empty
 */
export function addRerunTrials(db: Db, benchId: number, trials: readonly RerunTrial[], author?: Author | null, what = "rerun"): number {
  const c = db.$client;
  return writeTransaction(db, (tx) => {
    const b = c.prepare("SELECT status, system_id AS systemId FROM benches WHERE id = ?").get(benchId) as { status: string; systemId: string } | undefined;
    if (!b) throw new LibraryError("not_found", `Bench #${benchId} does not exist.`);
    if (b.status !== "finished") throw new LibraryError("not_allowed", `Bench #${benchId} is ${b.status}, not finished: nothing was added.`);
    if (trials.length === 0) throw new LibraryError("not_allowed", `Bench #${benchId}: nothing to rerun.`);
    const ins = c.prepare("INSERT INTO trials (bench_id, candidate_id, bench_case_id, repeat, status, rerun, rerun_of) VALUES (?, ?, ?, ?, 'queued', ?, ?)");
    for (const t of trials) ins.run(benchId, t.candidateId, t.benchCaseId, t.repeat, t.rerun, t.rerunOf);
    // The rerun is timed from now over its own trials (the progress's elapsed and time left), not from the launch over all:
    // rerun_base keeps how many trials the bench had (SQLite reads trial_count before this update's increment).
    c.prepare(
      "UPDATE benches SET status = 'queued', started_at = ?, rerun_base = trial_count, finished_at = NULL, cancel_requested_at = NULL, trial_count = trial_count + ? WHERE id = ?",
    ).run(Date.now(), trials.length, benchId);
    recordActivityTx(tx, author, {
      action: "bench.rerun",
      subjectType: "bench",
      subjectId: benchId,
      systemId: b.systemId,
      detail: `${what}: ${trials.length} trial${trials.length === 1 ? "" : "s"}`,
    });
    return trials.length;
  });
}
