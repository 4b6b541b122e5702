/**
 * A candidate's labelled paired comparison for the evidence tests (headline.test.ts,
 * fail-on.test.ts): 200 paired cases, no regression or fix, an inconclusive exact McNemar test
 * (p = 1) with a 10-point detectable effect, against the baseline "base"; `o` overrides any field.
 */
import type { LabelledComparison } from "../headline";

export const labelledComparison = (o: Partial<LabelledComparison> = {}): LabelledComparison => ({
  against: "baseline",
  againstCandidate: "base",
  n: 200,
  regressions: 0,
  fixes: 0,
  delta: 0,
  ci95: [0, 0],
  pValue: 1,
  test: "exact McNemar",
  signTestPValue: null,
  verdict: "inconclusive",
  minDetectableEffect: 0.1,
  unpaired: { candidate: 0, against: 0 },
  ...o,
});
