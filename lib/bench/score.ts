/**
 * Scoring one trial (DESIGN.md §4 step 5): the case's evaluators and the pinned rubric's criteria
 * (through the judge) each give a check with a verdict, score and reason. A trial whose history
 * could not be replayed is not judged at all: every check is `unscored` with that reason — never a
 * guessed pass or fail.
 */
import type { CaseContent } from "../library/case-content";
import type { CheckResult, EvaluationTrial } from "../evaluators/types";
import { describeEvaluator } from "../evaluators/describe";
import type { CheckRecord } from "./types";
import type { CriterionCalibrationState } from "../review/advisory";

/** A criterion revision pinned by a bench (the rubric snapshot). */
export interface RubricCriterion {
  criterionId: number;
  revisionId: number;
  rule: string;
  passes: string;
  fails: string;
  priority: "primary" | "secondary";
  /** `generated` for a criterion the generator wrote (absent for a custom one and in older benches). */
  origin?: "custom" | "generated";
  /** Whether its judge was calibrated against human verdicts at launch (issue 18); absent in older benches (they gated). */
  calibration?: CriterionCalibrationState;
}

/** Identity of one check of a case, stable across candidates and benches of the same case revision. */
export interface CheckSlot {
  key: string;
  kind: string;
  label: string;
  spec: unknown;
  priority?: "primary" | "secondary";
  criterionId?: number;
}

/**
 * The checks a case gets: its evaluators (`e<i>:<kind>`) — or, when it has none, the prompt's
 * default checks pinned by the bench (`p<i>:<kind>`, issue 15) — then the rubric's criteria
 * (`c<criterionId>`).
 * @param defaultChecks the prompt's default checks as the bench pinned them (evaluator specs)
 */
export function checkSlots(content: Pick<CaseContent, "evaluators">, rubric: RubricCriterion[], defaultChecks: readonly unknown[] = []): CheckSlot[] {
  const own = content.evaluators.length > 0;
  const slots: CheckSlot[] = (own ? content.evaluators : defaultChecks).map((spec, i) => {
    const kind = String((spec as { kind?: unknown })?.kind ?? "unknown");
    return { key: `${own ? "e" : "p"}${i}:${kind}`, kind, label: describeEvaluator(spec), spec };
  });
  for (const c of rubric) {
    slots.push({
      key: `c${c.criterionId}`,
      kind: "judge",
      label: c.rule,
      priority: c.priority,
      criterionId: c.criterionId,
      // No `name`: the slot's label already is the rule, and a spec's name is a short label (200
      // characters) while a rule may be as long as the criterion form allows.
      spec: { kind: "judge", criterion: { id: String(c.revisionId), rule: c.rule, passes: c.passes, fails: c.fails, priority: c.priority } },
    });
  }
  return slots;
}

/** Runs specs on a trial (the evaluator registry, with the judge model and sandbox bound). */
export type CheckRunner = (specs: unknown[], trial: EvaluationTrial) => Promise<CheckResult[]>;

/**
 * The check records of one completed trial.
 * @param slots from {@link checkSlots}
 * @param trial the trial as evaluators see it
 * @param unscoredReason when set (e.g. unreplayable history), no check runs and all are `unscored`
 */
export async function scoreTrial(slots: CheckSlot[], trial: EvaluationTrial, run: CheckRunner, unscoredReason: string | null): Promise<CheckRecord[]> {
  const results: CheckResult[] = unscoredReason
    ? slots.map((s) => ({ kind: s.kind, verdict: "unscored", score: 0, message: unscoredReason }))
    : await run(
        slots.map((s) => s.spec),
        trial,
      );
  return slots.map((s, i) => {
    const r = results[i];
    const rec: CheckRecord = { key: s.key, kind: s.kind, label: s.label, verdict: r.verdict, score: r.score, message: r.message };
    if (s.priority) rec.priority = s.priority;
    if (s.criterionId !== undefined) rec.criterionId = s.criterionId;
    if (r.details) rec.details = r.details;
    const used = (r.details?.judge as { usage?: { inputTokens: number; outputTokens: number } } | undefined)?.usage;
    if (used) rec.usage = { inputTokens: used.inputTokens, outputTokens: used.outputTokens, costUsd: null };
    return rec;
  });
}

/** Counts of verdicts in a list of checks. */
export function countVerdicts(checks: readonly { verdict: CheckRecord["verdict"] }[]): { passed: number; failed: number; unscored: number; error: number } {
  const n = { passed: 0, failed: 0, unscored: 0, error: 0 };
  for (const c of checks) n[c.verdict]++;
  return n;
}
