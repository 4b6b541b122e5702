import { describe, expect, it } from "vitest";
import { runChecks } from "../evaluators/registry";
import { validateEvaluatorSpecs } from "../evaluators/validate";
import { emptyCaseContent } from "../library/case-content";
import { criterionFieldsSchema } from "../library/forms";
import { LIMITS } from "../library/limits";
import { textModel } from "../runtime/test-support/mock-model";
import { checkSlots, scoreTrial, type RubricCriterion } from "./score";

const criterion = (rule: string): RubricCriterion => ({ criterionId: 7, revisionId: 70, rule, passes: "it does", fails: "it does not", priority: "primary" });
const judge = textModel('{"reason": "The reply follows the rule.", "verdict": "pass"}');

describe("judged criteria of a bench", () => {
  it("judges a rule as long as the criterion form accepts (a 201-character rule was a configuration error: name: Too big)", async () => {
    const rule = "Reply politely and cite the refund policy. ".repeat(60).slice(0, LIMITS.criterionRule);
    expect(rule.length).toBe(LIMITS.criterionRule);
    expect(criterionFieldsSchema.safeParse({ rule, passes: "it does", fails: "it does not", priority: "primary" }).success).toBe(true);

    const slots = checkSlots(emptyCaseContent(), [criterion(rule)]);
    expect(slots.map((s) => [s.key, s.kind, s.label])).toEqual([["c7", "judge", rule]]);
    expect(validateEvaluatorSpecs(slots.map((s) => s.spec))).toEqual([]);
    const [check] = await scoreTrial(
      slots,
      { output: "Certainly: refunds take 14 days." },
      (specs, trial) => runChecks(specs, trial, { judge: { model: judge } }),
      null,
    );
    expect(check).toMatchObject({
      key: "c7",
      kind: "judge",
      label: rule,
      verdict: "passed",
      message: "Judge: pass — The reply follows the rule.",
      criterionId: 7,
      priority: "primary",
    });
  });

  it("states the criterion form's limit wherever a judged rule is written (one constant)", () => {
    const tooLong = "x".repeat(LIMITS.criterionRule + 1);
    expect(criterionFieldsSchema.safeParse({ rule: tooLong, passes: "p", fails: "f", priority: "primary" }).error?.issues[0].message).toBe(
      `Rule is too long: the limit is ${LIMITS.criterionRule.toLocaleString("en-US")} characters.`,
    );
    // A judge spec written on a case (the evaluator editor, a published code suite) is held to the same limit when saved.
    expect(validateEvaluatorSpecs([{ kind: "judge", criterion: { rule: tooLong } }])).toEqual([
      {
        index: 0,
        field: "criterion.rule",
        message: `the criterion's rule is too long: the limit is ${LIMITS.criterionRule.toLocaleString("en-US")} characters (got ${(LIMITS.criterionRule + 1).toLocaleString("en-US")})`,
      },
    ]);
    expect(validateEvaluatorSpecs([{ kind: "judge", criterion: { rule: "x".repeat(LIMITS.criterionRule) } }])).toEqual([]);
  });
});

describe("checkSlots with the prompt's default checks (issue 15)", () => {
  it("a case with no evaluator of its own inherits the prompt's default checks; a case with its own keeps them", async () => {
    const { checkSlots } = await import("./score");
    const defaults = [{ kind: "exact" }];
    expect(checkSlots({ evaluators: [] }, [], defaults).map((s) => [s.key, s.kind])).toEqual([["p0:exact", "exact"]]);
    expect(checkSlots({ evaluators: [{ kind: "contains", expected: "x" }] }, [], defaults).map((s) => s.key)).toEqual(["e0:contains"]);
  });
});
