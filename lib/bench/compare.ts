/**
 * Case-by-case comparison of two benches of the same prompt (issue #5, History): for one candidate
 * of each bench, how each case's verdict changed. Changes are named the way the results page names
 * them: a case that passed before and fails now **regressed**, one that failed before and passes
 * now is **fixed**; any other difference (an error, a case only in one bench, unscored) is a
 * **change**. A case with some passing trials (`mixed`) counts as failing, as in the matrix's
 * regression rule: not every trial passed. A case that failed in both but has a check that passed
 * before and fails now (a regression as the results page counts them: per check, same case
 * revision) is **regressed** too, with those checks named.
 */
import type { CaseCell } from "./aggregate";

/** A case's verdict in one bench, or `absent` when the case is not in that bench. */
export type CompareVerdict = CaseCell["verdict"] | "absent";

/** How a case's verdict moved from the first bench to the second. */
export type VerdictChange = "regressed" | "fixed" | "changed" | "same";

/** The verdict of a case for one candidate, with the trial to open (null when none ran). */
export interface CompareCell {
  verdict: CaseCell["verdict"];
  /** Trial to open from the comparison (the case's first trial for that candidate). */
  firstTrialId: number | null;
}

/** A case of either bench: its key, revision and cell per candidate id. */
export interface CompareRow {
  caseKey: string;
  caseRevisionId: number;
  cells: Record<number, CompareCell | undefined>;
}

/** One line of the comparison. */
export interface CompareLine {
  caseKey: string;
  before: CompareVerdict;
  after: CompareVerdict;
  beforeTrialId: number | null;
  afterTrialId: number | null;
  change: VerdictChange;
  /** The case was edited between the benches (different case revisions): a change may come from the case. */
  revisionChanged: boolean;
  /** Labels of the case's checks that passed in the first bench and fail in the second. */
  regressedChecks: string[];
}

/** Lines per kind of change. */
export type ChangeCounts = Record<VerdictChange, number>;

const ORDER: Record<VerdictChange, number> = { regressed: 0, fixed: 1, changed: 2, same: 3 };
const passing = (v: CompareVerdict) => v === "passed";
const failing = (v: CompareVerdict) => v === "failed" || v === "mixed";

/** The change from `before` to `after` (see the module doc for the rule). */
export function verdictChange(before: CompareVerdict, after: CompareVerdict): VerdictChange {
  if (passing(before) && failing(after)) return "regressed";
  if (failing(before) && passing(after)) return "fixed";
  const same = before === after || (failing(before) && failing(after));
  return same ? "same" : "changed";
}

/**
 * Compares candidate `candidateA` in rows `a` (the earlier bench) with `candidateB` in rows `b`.
 * @param a rows of the first bench (one per included case)
 * @param b rows of the second bench
 * @param regressedChecks per case key, the labels of its checks that passed for `candidateA` and
 *   fail for `candidateB` (`findRegressions` over both benches' check outcomes); default none
 * @returns every case of either bench, regressions first, then fixes, other changes and unchanged
 *   cases, each group by case key; and the number of lines of each kind
 */
export function compareBenches(
  a: readonly CompareRow[],
  b: readonly CompareRow[],
  candidateA: number,
  candidateB: number,
  regressedChecks: ReadonlyMap<string, string[]> = new Map(),
): { lines: CompareLine[]; counts: ChangeCounts } {
  const byKeyA = new Map(a.map((r) => [r.caseKey, r]));
  const byKeyB = new Map(b.map((r) => [r.caseKey, r]));
  const keys = new Set([...byKeyA.keys(), ...byKeyB.keys()]);
  const counts: ChangeCounts = { regressed: 0, fixed: 0, changed: 0, same: 0 };
  const lines: CompareLine[] = [];
  for (const caseKey of keys) {
    const ra = byKeyA.get(caseKey);
    const rb = byKeyB.get(caseKey);
    const ca = ra?.cells[candidateA];
    const cb = rb?.cells[candidateB];
    const before: CompareVerdict = ca?.verdict ?? "absent";
    const after: CompareVerdict = cb?.verdict ?? "absent";
    const checks = regressedChecks.get(caseKey) ?? [];
    const change = checks.length ? "regressed" : verdictChange(before, after);
    counts[change]++;
    lines.push({
      caseKey,
      before,
      after,
      beforeTrialId: ca?.firstTrialId ?? null,
      afterTrialId: cb?.firstTrialId ?? null,
      change,
      revisionChanged: Boolean(ra && rb && ra.caseRevisionId !== rb.caseRevisionId),
      regressedChecks: checks,
    });
  }
  lines.sort((x, y) => ORDER[x.change] - ORDER[y.change] || x.caseKey.localeCompare(y.caseKey, "en", { numeric: true }));
  return { lines, counts };
}
