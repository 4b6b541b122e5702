/** Test fixture: paired case tallies for comparisons of one trial per case. */
import type { CaseTally } from "@/lib/bench/stats/paired";

/** One trial per case: `same` cases both pass, `b` regressions, `c` fixes (issue #16's reference: b = 2, c = 10 → p = 0.03857). */
export function oneTrialTallies(same: number, b: number, c: number): [Map<number, CaseTally>, Map<number, CaseTally>] {
  const cand = new Map<number, CaseTally>();
  const other = new Map<number, CaseTally>();
  let k = 0;
  const put = (x: number, y: number) => {
    cand.set(k, { passed: x, scored: 1 });
    other.set(k++, { passed: y, scored: 1 });
  };
  for (let i = 0; i < same; i++) put(1, 1);
  for (let i = 0; i < b; i++) put(0, 1);
  for (let i = 0; i < c; i++) put(1, 0);
  return [cand, other];
}
