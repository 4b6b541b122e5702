/**
 * The status of every regression of a bench (confirmed, suspected, cleared …, see
 * `classifyCheck`), from per-check tallies: the reference's trials (the bench's baseline, or the
 * last bench's reference candidate), the candidate's trials, and the candidate's trials added by a
 * confirm round (issue #16 §3). Read when a bench is finalized (the gate leaves cleared
 * regressions out) and when its results page is shown. Checks are parsed only for the case
 * revisions with a regression, in one pass per bench.
 */
import type { Db } from "../client";
import { benchCheckTalliesOf } from "./bench-tallies";
import type { Regression } from "@/lib/bench/recommend";
import { classifyCheck, type CheckTally, type RegressionClassification } from "@/lib/bench/stats/regression-status";
import { checkTally, type SideTallies } from "@/lib/bench/stats/tallies";

/** Where a bench's regressions were measured. */
export interface RegressionReferences {
  baselineCandidateId: number | null;
  referenceBenchId: number | null;
  referenceCandidateId: number | null;
}

const EMPTY: CheckTally = { passed: 0, scored: 0 };

/**
 * Per-check tallies the caller has already (the finalize's check outcomes), usable only where every
 * trial with checks counts in the results — no rerun ever added trials to that bench
 * (`rerun_base` 0): then the tallies over all trials equal them, and there is no confirm round.
 */
export interface KnownCheckTallies {
  /** Per candidate of this bench, its tallies. */
  bench?: (candidateId: number) => Promise<SideTallies["checks"]>;
  /** The reference candidate's tallies in the reference bench. */
  reference?: SideTallies["checks"];
}

/**
 * Classifies each regression of each candidate, in the order given.
 * @param regressions per candidate id, its regressions (as `findRegressions` lists them)
 * @param known tallies the caller has (see {@link KnownCheckTallies}): those trials are not read again
 * @returns per candidate id, one classification per regression
 */
export async function classifyBenchRegressions(
  db: Db,
  benchId: number,
  regressions: ReadonlyMap<number, readonly Regression[]>,
  refs: RegressionReferences,
  known: KnownCheckTallies = {},
): Promise<Map<number, RegressionClassification[]>> {
  const broken = (against: Regression["against"]) =>
    new Set([...regressions.values()].flatMap((rs) => rs.filter((r) => r.against === against).map((r) => r.caseRevisionId)));
  // One pass over this bench's trials for every side (a side's tallies are per case revision and
  // check, so the baseline's can serve both its own regressions and the candidates' against it).
  const wanted = new Map<number, Set<number>>();
  const want = (candidateId: number, revs: Iterable<number>) => {
    let set = wanted.get(candidateId);
    if (!set) wanted.set(candidateId, (set = new Set()));
    for (const r of revs) set.add(r);
  };
  for (const [candidateId, list] of regressions)
    if (list.length)
      want(
        candidateId,
        list.map((r) => r.caseRevisionId),
      );
  if (refs.baselineCandidateId !== null) want(refs.baselineCandidateId, broken("baseline"));
  const none = new Map<number, Map<string, CheckTally>>();
  const tallies = known.bench
    ? new Map(await Promise.all([...wanted.keys()].map(async (id) => [id, { all: await known.bench!(id), confirm: none }] as const)))
    : await benchCheckTalliesOf(db, benchId, wanted);
  const baseChecks = refs.baselineCandidateId !== null ? (tallies.get(refs.baselineCandidateId)?.all ?? none) : none;
  const refChecks =
    refs.referenceBenchId !== null && refs.referenceCandidateId !== null
      ? (known.reference ??
        (await benchCheckTalliesOf(db, refs.referenceBenchId, new Map([[refs.referenceCandidateId, broken("last bench")]]))).get(refs.referenceCandidateId)
          ?.all ??
        none)
      : none;
  const out = new Map<number, RegressionClassification[]>();
  for (const [candidateId, list] of regressions) {
    if (list.length === 0) {
      out.set(candidateId, []);
      continue;
    }
    const own = tallies.get(candidateId)?.all ?? none;
    const rerun = tallies.get(candidateId)?.confirm ?? none;
    out.set(
      candidateId,
      list.map((r) => {
        const ref = checkTally(r.against === "baseline" ? baseChecks : refChecks, r.caseRevisionId, r.key) ?? EMPTY;
        const mine = checkTally(own, r.caseRevisionId, r.key) ?? EMPTY;
        const again = checkTally(rerun, r.caseRevisionId, r.key);
        return classifyCheck(ref, mine, again);
      }),
    );
  }
  return out;
}
