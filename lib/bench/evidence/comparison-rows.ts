/**
 * The rows of the results page's "Comparisons" table (issue #16 §1, §5): every stored paired
 * comparison of every candidate (against the baseline and against the last bench), each with its
 * verdict in words, Δ with its 95 % interval, p and the test, the paired cases and the smallest
 * difference the bench could detect. Built from the stored evidence only (nothing recomputed), with
 * the same wording as the headline and the pull-request comment (format.ts).
 */
import type { ComparisonVerdict } from "@/lib/bench/stats/paired";
import { formatCi, formatPoints, formatPValue, minDetectablePoints } from "./format";
import type { LabelledComparison } from "./headline";

/** One candidate with its stored comparisons, in the page's candidate order. */
export interface ComparisonSource {
  label: string;
  comparisons: readonly (LabelledComparison & { againstBenchId?: number })[];
}

/** One row of the table: display texts and the raw values it sorts by. */
export interface ComparisonRow {
  /** Stable React key: "candidate index:against". */
  key: string;
  candidate: string;
  /** "baseline (a)" or "last bench #8 (a)". */
  against: string;
  verdict: ComparisonVerdict;
  /** "+15.0 points", "−5.0 points" (U+2212); "—" when nothing was paired. */
  delta: string;
  /** "95 % CI +8.1 to +21.9"; "no interval" when there is none. */
  ci: string;
  /** "p < 0.001 · exact McNemar", with the sign test's p when it was run; "—" without a p. */
  test: string;
  n: number;
  /** "≥ 7 points"; "— (too few cases)" when n is too small to say. */
  detectable: string;
  /** Sort keys: Δ and p as numbers (null last), the smallest detectable difference as a fraction. */
  sort: { delta: number | null; p: number | null; mde: number | null };
}

/** The columns the table sorts by. */
export type ComparisonSortKey = "candidate" | "verdict" | "delta" | "p" | "n" | "mde";

/**
 * Every comparison of every candidate as a table row, candidates in the given order, each one's
 * comparison against the baseline before the one against the last bench.
 * @param lastBenchId the last bench's id, named in the "against" cell (null: unknown, "last bench")
 */
export function comparisonRows(candidates: readonly ComparisonSource[], lastBenchId: number | null): ComparisonRow[] {
  const rows: ComparisonRow[] = [];
  candidates.forEach((c, i) => {
    const ordered = [...c.comparisons].sort((a, b) => (a.against === b.against ? 0 : a.against === "baseline" ? -1 : 1));
    for (const x of ordered) {
      const benchNo = x.against === "last" ? (x.againstBenchId ?? lastBenchId) : null;
      rows.push({
        key: `${i}:${x.against}`,
        candidate: c.label,
        against: x.against === "baseline" ? `baseline (${x.againstCandidate})` : `last bench${benchNo !== null ? ` #${benchNo}` : ""} (${x.againstCandidate})`,
        verdict: x.verdict,
        delta: x.delta === null ? "—" : `${formatPoints(x.delta)} points`,
        ci: x.ci95 ? formatCi(x.ci95) : "no interval",
        test:
          x.pValue === null ? "—" : `${formatPValue(x.pValue)} · ${x.test}${x.signTestPValue !== null ? ` (sign test ${formatPValue(x.signTestPValue)})` : ""}`,
        n: x.n,
        detectable: x.minDetectableEffect === null ? "— (too few cases)" : `≥ ${minDetectablePoints(x.minDetectableEffect)} points`,
        sort: { delta: x.delta, p: x.pValue, mde: x.minDetectableEffect },
      });
    }
  });
  return rows;
}

const VERDICT_ORDER: Record<ComparisonVerdict, number> = { worse: 0, inconclusive: 1, better: 2 };

/**
 * The rows sorted by one column (a stable sort: ties keep the page's order); a missing Δ, p or
 * detectable difference sorts last either way.
 * @param dir "asc" or "desc"
 */
export function sortComparisonRows(rows: readonly ComparisonRow[], by: ComparisonSortKey, dir: "asc" | "desc"): ComparisonRow[] {
  const sign = dir === "asc" ? 1 : -1;
  const num = (r: ComparisonRow): number | null =>
    by === "delta" ? r.sort.delta : by === "p" ? r.sort.p : by === "mde" ? r.sort.mde : by === "n" ? r.n : VERDICT_ORDER[r.verdict];
  return rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => {
      if (by === "candidate") return sign * a.r.candidate.localeCompare(b.r.candidate, undefined, { numeric: true }) || a.i - b.i;
      const x = num(a.r);
      const y = num(b.r);
      if (x === null || y === null) return x === y ? a.i - b.i : x === null ? 1 : -1;
      return sign * (x - y) || a.i - b.i;
    })
    .map(({ r }) => r);
}
