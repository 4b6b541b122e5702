/**
 * Deterministic replays (issue #16 §2, found by the new-user pass). A recorded candidate reads its
 * output from the dataset instead of calling a model, so every trial of it replays the same answer.
 * When the reference it is compared with is recorded too and the broken check is code (a static
 * or custom evaluator), every repeat of both sides is a copy: a rerun cannot change the outcome,
 * and a Fisher p over copies (3/3 → 0/3 = 0.05 from three replays of one answer) is no evidence.
 * Such a regression is `confirmed` with the reason "deterministic replay" and no p value. A check
 * an LLM judge scores is not deterministic (the judge can answer differently): it keeps the
 * repeat rule and can be confirmed by a rerun.
 */
import { evaluatorSpecSchema } from "@/lib/evaluators/spec";
import type { RegressionClassification, RegressionReason } from "./regression-status";

/** The reason a regression is confirmed without repeats. */
export const DETERMINISTIC_REPLAY: RegressionReason = "deterministic replay";

/** Evaluator kinds that run code (static evaluators and custom code in the sandbox), not a model. */
const CODE_KINDS: ReadonlySet<string> = new Set(evaluatorSpecSchema.options.map((o) => o.shape.kind.value).filter((k) => k !== "judge"));

/**
 * Whether a check key (as `checkSlots` in lib/bench/score.ts makes them: `e<i>:<kind>` for a case's
 * evaluator, `p<i>:<kind>` for a prompt's default check, `c<criterionId>` for a rubric criterion)
 * names a check run by code. Criteria and `judge` evaluators are not; neither is a kind no
 * evaluator has (it is not assumed to be code).
 */
export function isCodeCheckKey(key: string): boolean {
  const m = /^[ep]\d+:(.+)$/.exec(key);
  return m !== null && CODE_KINDS.has(m[1]);
}

/** A candidate's kind as a bench stores it (`null`: not found). */
export type CandidateKind = "model" | "recorded" | null;

/**
 * Whether a regression is a deterministic replay: the candidate and the reference it is compared
 * with are both recorded, and the check is code.
 * @param o.candidateKind the regressed candidate's kind
 * @param o.referenceKind the kind of the candidate it passed for (the baseline, or the last bench's reference candidate)
 * @param o.checkKey the broken check's key
 */
export function isDeterministicRegression(o: { candidateKind: CandidateKind; referenceKind: CandidateKind; checkKey: string }): boolean {
  return o.candidateKind === "recorded" && o.referenceKind === "recorded" && isCodeCheckKey(o.checkKey);
}

/**
 * The classification of a deterministic regression: a `suspected` one (chance cannot explain a
 * copy) or one `confirmed` by a Fisher p over copies becomes `confirmed` with the reason and no p.
 * Any other status is returned as it is (a replay whose outcome varied is not deterministic).
 */
export function asDeterministicReplay(c: RegressionClassification): RegressionClassification {
  return c.status === "suspected" || c.status === "confirmed" ? { status: "confirmed", pValue: null, reason: DETERMINISTIC_REPLAY } : c;
}
