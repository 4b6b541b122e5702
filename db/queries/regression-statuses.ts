/**
 * The status of every regression of a bench (confirmed, suspected, cleared …, see
 * `classifyCheck`), from per-check tallies: the reference's trials (the bench's baseline, or the
 * last bench's reference candidate), the candidate's trials, and the candidate's trials added by a
 * confirm round (issue #16 §3). Read when a bench is finalized (the gate leaves cleared
 * regressions out) and when its results page is shown. Checks are parsed only for the case
 * revisions with a regression.
 */
import type { Db } from "../client";
import { benchCheckTallies } from "./bench-tallies";
import type { Regression } from "@/lib/bench/recommend";
import { classifyCheck, type CheckTally, type RegressionClassification } from "@/lib/bench/stats/regression-status";
import { checkTally } from "@/lib/bench/stats/tallies";

/** Where a bench's regressions were measured. */
export interface RegressionReferences {
  baselineCandidateId: number | null;
  referenceBenchId: number | null;
  referenceCandidateId: number | null;
}

const EMPTY: CheckTally = { passed: 0, scored: 0 };

/**
 * Classifies each regression of each candidate, in the order given.
 * @param regressions per candidate id, its regressions (as `findRegressions` lists them)
 * @returns per candidate id, one classification per regression
 */
export async function classifyBenchRegressions(
  db: Db,
  benchId: number,
  regressions: ReadonlyMap<number, readonly Regression[]>,
  refs: RegressionReferences,
): Promise<Map<number, RegressionClassification[]>> {
  const broken = (against: Regression["against"]) =>
    new Set([...regressions.values()].flatMap((rs) => rs.filter((r) => r.against === against).map((r) => r.caseRevisionId)));
  const baseChecks = refs.baselineCandidateId !== null ? await benchCheckTallies(db, benchId, refs.baselineCandidateId, broken("baseline")) : new Map();
  const refChecks =
    refs.referenceBenchId !== null && refs.referenceCandidateId !== null
      ? await benchCheckTallies(db, refs.referenceBenchId, refs.referenceCandidateId, broken("last bench"))
      : new Map();
  const out = new Map<number, RegressionClassification[]>();
  for (const [candidateId, list] of regressions) {
    if (list.length === 0) {
      out.set(candidateId, []);
      continue;
    }
    const revs = new Set(list.map((r) => r.caseRevisionId));
    const own = await benchCheckTallies(db, benchId, candidateId, revs);
    const rerun = await benchCheckTallies(db, benchId, candidateId, revs, { confirmOnly: true });
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
