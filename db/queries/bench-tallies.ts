/**
 * The counts the paired statistics read (issue #16), straight from the trial count columns so a
 * large bench is not parsed again: per candidate and case revision, trials that passed (a scored
 * check and no failed one) of trials with a scored check; and, for a few case revisions only (the
 * ones with a broken check), per-check tallies parsed from the stored checks.
 */
import type { Db } from "../client";
import type { CaseTally } from "@/lib/bench/stats/paired";
import type { CheckTally } from "@/lib/bench/stats/regression-status";
import type { CheckRecord } from "@/lib/bench/types";
import type { SideTallies } from "@/lib/bench/stats/tallies";
import { IN_RESULTS } from "./rerun-sql";
import { applyHumanVerdicts } from "@/lib/review/overlay";
import { parseHumanOverlay } from "./human-verdicts";

/**
 * Case tallies of every candidate of bench `benchId` (optionally one candidate).
 * @returns per candidate id, per case revision id, `{ passed, scored }` (cases whose trials were
 *   all unscored, errored or unrun have `scored: 0`)
 */
export function benchCaseTallies(db: Db, benchId: number, candidateId?: number): Map<number, Map<number, CaseTally>> {
  const rows = db.$client
    .prepare(
      `SELECT t.candidate_id AS c, bc.case_revision_id AS r,
              coalesce(sum(t.passed_checks + t.failed_checks > 0), 0) AS scored,
              coalesce(sum(t.passed_checks + t.failed_checks > 0 AND t.failed_checks = 0), 0) AS passed
       FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id
       WHERE t.bench_id = ? ${candidateId ? "AND t.candidate_id = ?" : ""} AND ${IN_RESULTS}
       GROUP BY t.candidate_id, bc.case_revision_id`,
    )
    .all(...(candidateId ? [benchId, candidateId] : [benchId])) as { c: number; r: number; scored: number; passed: number }[];
  const out = new Map<number, Map<number, CaseTally>>();
  for (const x of rows) {
    let m = out.get(x.c);
    if (!m) out.set(x.c, (m = new Map()));
    m.set(x.r, { passed: x.passed, scored: x.scored });
  }
  return out;
}

/** A case of one candidate: its tally, its `done` trials and their mean cost (USD) and latency (ms) (null when none had one). */
export interface CaseFigures extends CaseTally {
  done: number;
  costUsd: number | null;
  latencyMs: number | null;
}

/**
 * Case tallies (as {@link benchCaseTallies}) and the mean cost and latency of the `done` trials (as
 * `benchCaseCosts`) of every candidate of bench `benchId`, from one grouped query over the trials
 * that count in the results: the finalize reads both, and each query walks every trial of the bench.
 * @param o.neverRerun no rerun ever added trials to the bench (`rerun_base` 0): every trial counts in the
 *   results, and the per-trial check for a rerun replacing it is skipped
 * @returns per candidate id, per case revision id (ascending, as the separate queries order them), its figures
 */
export function benchCaseFigures(db: Db, benchId: number, o: { neverRerun?: boolean } = {}): Map<number, Map<number, CaseFigures>> {
  const rows = db.$client
    .prepare(
      `SELECT t.candidate_id AS c, bc.case_revision_id AS r,
              coalesce(sum(t.passed_checks + t.failed_checks > 0), 0) AS scored,
              coalesce(sum(t.passed_checks + t.failed_checks > 0 AND t.failed_checks = 0), 0) AS passed,
              sum(t.status = 'done') AS done, avg(CASE WHEN t.status = 'done' THEN t.cost_usd END) AS cost, avg(CASE WHEN t.status = 'done' THEN t.latency_ms END) AS latency
       FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id
       WHERE t.bench_id = ? AND ${o.neverRerun ? "1" : IN_RESULTS}
       GROUP BY t.candidate_id, bc.case_revision_id`,
    )
    .all(benchId) as { c: number; r: number; scored: number; passed: number; done: number; cost: number | null; latency: number | null }[];
  const out = new Map<number, Map<number, CaseFigures>>();
  for (const x of rows) {
    let m = out.get(x.c);
    if (!m) out.set(x.c, (m = new Map()));
    m.set(x.r, { passed: x.passed, scored: x.scored, done: x.done, costUsd: x.cost, latencyMs: x.latency });
  }
  return out;
}

/** One candidate's per-check tallies over all its trials, and over the trials a confirm round added. */
export interface CheckTalliesWithConfirm {
  all: SideTallies["checks"];
  confirm: SideTallies["checks"];
}

/**
 * Per-check tallies (case revision id → check key → `{ passed, scored }`) of several candidates of
 * bench `benchId`, in one pass over their trials: over all of a candidate's trials with checks, and
 * over the ones a confirm round added (`trials.rerun = 'confirm'`). A regression's status reads the
 * reference's, the candidate's and its confirm round's tallies of the broken checks.
 * Human verdicts are read once for the bench (usually none), not per trial.
 * @param wanted candidate id → the case revision ids to tally for it
 */
export function benchCheckTalliesOf(db: Db, benchId: number, wanted: ReadonlyMap<number, ReadonlySet<number>>): Map<number, CheckTalliesWithConfirm> {
  const out = new Map<number, CheckTalliesWithConfirm>();
  const revs = new Set<number>();
  for (const [c, set] of wanted) {
    if (set.size === 0) continue;
    out.set(c, { all: new Map(), confirm: new Map() });
    for (const r of set) revs.add(r);
  }
  if (revs.size === 0) return out;
  const human = new Map(
    (
      db.$client
        .prepare(
          `SELECT hv.trial_id AS id, json_group_array(json_object('checkKey', hv.check_key, 'verdict', hv.verdict, 'at', hv.created_at, 'id', hv.id)) AS human
           FROM trials t JOIN human_verdicts hv ON hv.trial_id = t.id WHERE t.bench_id = ? GROUP BY hv.trial_id`,
        )
        .all(benchId) as { id: number; human: string }[]
    ).map((h) => [h.id, h.human]),
  );
  // Raw rows (arrays, not objects): one object fewer per trial.
  const stmt = db.$client
    .prepare(
      `SELECT t.id, t.candidate_id, bc.case_revision_id, t.checks, t.rerun = 'confirm'
       FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id
       WHERE t.bench_id = ? AND t.checks IS NOT NULL AND t.candidate_id IN (SELECT value FROM json_each(?))
         AND bc.case_revision_id IN (SELECT value FROM json_each(?))`,
    )
    .raw(true);
  const add = (byRev: SideTallies["checks"], rev: number, key: string, passed: boolean) => {
    let byKey = byRev.get(rev);
    if (!byKey) byRev.set(rev, (byKey = new Map()));
    let ct = byKey.get(key);
    if (!ct) byKey.set(key, (ct = { passed: 0, scored: 0 } satisfies CheckTally));
    ct.scored++;
    if (passed) ct.passed++;
  };
  for (const [id, candidateId, rev, checks, confirm] of stmt.iterate(benchId, JSON.stringify([...out.keys()]), JSON.stringify([...revs])) as Iterable<
    [number, number, number, string, number | null]
  >) {
    if (!wanted.get(candidateId)!.has(rev)) continue;
    const side = out.get(candidateId)!;
    const h = human.get(id);
    const parsed = JSON.parse(checks) as CheckRecord[];
    for (const c of h ? applyHumanVerdicts(parsed, parseHumanOverlay(h)) : parsed) {
      if (c.verdict !== "passed" && c.verdict !== "failed") continue;
      add(side.all, rev, c.key, c.verdict === "passed");
      if (confirm) add(side.confirm, rev, c.key, c.verdict === "passed");
    }
  }
  return out;
}
