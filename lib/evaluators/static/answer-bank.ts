/**
 * `answer_bank`: the output must equal one of the accepted answers. Each answer is one string, even
 * when it contains commas (answers are never split). Same text options as `exact`.
 */
import type { AnswerBankSpec } from "../spec";
import { failed, passed } from "../result";
import { shortReadable, shortVisible } from "../text/diff";
import { describeTextOptions, prepareText, resolveTextOptions } from "../text/prepare";
import { outputOf, type FieldProblem, type StaticRunner } from "./common";
import { explainTransformMatch } from "./exact";

const KIND = "answer_bank";
/** How many answers a failure message lists before "… and N more". */
const LISTED_ANSWERS = 5;

/** Configuration problems of an `answer_bank` spec: an empty bank or an empty answer. */
export function checkAnswerBank(spec: AnswerBankSpec): FieldProblem[] {
  if (spec.answers.length === 0) return [{ field: "answers", message: "the answer bank is empty: add at least one accepted answer" }];
  const problems: FieldProblem[] = [];
  spec.answers.forEach((a, i) => {
    if (a.trim() === "") problems.push({ field: `answers[${i}]`, message: "answer is empty" });
  });
  return problems;
}

/** Compiles an `answer_bank` spec (answers are prepared once). Assumes a valid spec; never throws. */
export function compileAnswerBank(spec: AnswerBankSpec): StaticRunner {
  const options = resolveTextOptions(spec);
  const rawIndex = new Map<string, number>();
  const preparedIndex = new Map<string, number>();
  spec.answers.forEach((a, i) => {
    if (!rawIndex.has(a)) rawIndex.set(a, i);
    const p = prepareText(a, options);
    if (!preparedIndex.has(p)) preparedIndex.set(p, i);
  });
  const suffix = describeTextOptions(options);
  const how = suffix ? ` (${suffix})` : "";
  const n = spec.answers.length;
  const listed =
    spec.answers
      .slice(0, LISTED_ANSWERS)
      .map((a) => `"${shortVisible(a, 60)}"`)
      .join(", ") + (n > LISTED_ANSWERS ? `, … and ${n - LISTED_ANSWERS} more` : "");
  return (trial) => {
    const output = outputOf(trial);
    const raw = rawIndex.get(output);
    if (raw !== undefined) return passed(KIND, `The output equals accepted answer ${raw + 1} of ${n}.`, { matchedIndex: raw });
    const i = preparedIndex.get(prepareText(output, options));
    if (i !== undefined)
      return passed(KIND, `The output equals accepted answer ${i + 1} of ${n}${explainTransformMatch(output, spec.answers[i], options)}.`, {
        matchedIndex: i,
        normalized: true,
      });
    const hints: string[] = [];
    if (!options.trim || !options.ignoreCase) {
      const loose = { ...options, trim: true, ignoreCase: true };
      const target = prepareText(output, loose);
      const near = spec.answers.findIndex((a) => prepareText(a, loose) === target);
      if (near >= 0)
        hints.push(`It differs from answer ${near + 1} ("${shortVisible(spec.answers[near], 60)}") only in letter case or surrounding whitespace.`);
    }
    return failed(
      KIND,
      `The output equals none of the ${n} accepted answer${n === 1 ? "" : "s"}${how}.\n  output: ${
        output.length === 0 ? "⟨empty⟩" : `"${shortReadable(output, 120)}"`
      }\n  accepted: ${listed}${hints.length ? "\n" + hints.join("\n") : ""}`,
    );
  };
}
