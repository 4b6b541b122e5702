/**
 * `exact`: the output must be identical to the expected text. Case-sensitive by default; Unicode NFC
 * normalisation on by default (the message says when it mattered). On failure the message shows
 * where the strings differ, with visible markers for spaces, newlines and invisible characters.
 */
import type { ExactSpec } from "../spec";
import { configError, failed, passed } from "../result";
import { describeDifference } from "../text/diff";
import { trimInvisible } from "../text/invisible";
import { describeTextOptions, nfc, prepareText, resolveTextOptions } from "../text/prepare";
import { emptyExpectedProblem, outputOf, type FieldProblem, type SpecContext, type StaticRunner } from "./common";

const KIND = "exact";

/** Configuration problems of an `exact` spec (empty expected value). */
export function checkExact(spec: ExactSpec, context?: SpecContext): FieldProblem[] {
  const p = emptyExpectedProblem(spec.expected, context);
  return p ? [p] : [];
}

/** Compiles an `exact` spec. The expected text comes from the spec, else from the trial's case context. Never throws. */
export function compileExact(spec: ExactSpec): StaticRunner {
  const options = resolveTextOptions(spec);
  const suffix = describeTextOptions(options);
  const how = suffix ? ` (${suffix})` : "";
  // Per expected text (the spec's, or the case's): prepared and compared forms, computed once.
  let lastRaw: string | undefined;
  let lastPrepared = "";
  let cmpExpected = "";
  let e = "";
  let expectedEmpty = true;
  return (trial) => {
    const expectedValue = spec.expected ?? trial.context?.expected ?? "";
    const source = spec.expected !== undefined ? "spec" : "case";
    if (expectedValue !== lastRaw) {
      lastRaw = expectedValue;
      expectedEmpty = expectedValue.trim() === "";
      lastPrepared = prepareText(expectedValue, options);
      cmpExpected = options.normalizeUnicode ? nfc(expectedValue) : expectedValue;
      e = options.trim ? trimInvisible(cmpExpected) : cmpExpected;
    }
    if (expectedEmpty) return configError(KIND, source === "spec" ? "expected is empty" : "expected is not set and the case's expected result is empty");
    const output = outputOf(trial);
    if (output === expectedValue) return passed(KIND, "The output matches the expected text exactly.");
    const preparedOutput = prepareText(output, options);
    if (preparedOutput === lastPrepared) {
      return passed(KIND, `The output matches the expected text${explainTransformMatch(output, expectedValue, options)}.`, {
        normalized: true,
      });
    }
    // Failure: show the difference on the compared forms (NFC, trimmed, case-folded as configured).
    const cmpOutput = options.normalizeUnicode ? nfc(output) : output;
    const o = options.trim ? trimInvisible(cmpOutput) : cmpOutput;
    const diff = describeDifference(e, o, options.ignoreCase);
    const hints: string[] = [];
    if (!options.trim && trimInvisible(cmpOutput) === trimInvisible(cmpExpected))
      hints.push("They differ only in leading or trailing whitespace; set trim: true to ignore it.");
    else if (!options.ignoreCase && o.length === e.length && o.toLowerCase() === e.toLowerCase())
      hints.push("They differ only in letter case (the comparison is case-sensitive); set ignoreCase: true to ignore case.");
    if (options.normalizeUnicode && (cmpOutput !== output || cmpExpected !== expectedValue)) hints.push("Positions refer to the Unicode NFC-normalized text.");
    if (!options.normalizeUnicode && nfc(output) === nfc(expectedValue))
      hints.push("They would match with Unicode normalization (NFC), which is turned off for this check.");
    return failed(KIND, `The output does not match the expected text${how}.\n${diff}${hints.length ? "\n" + hints.join("\n") : ""}`, {
      expected: expectedValue,
      expectedSource: source,
    });
  };
}

/** Words for which option made a non-identical output match, e.g. " after Unicode normalization (NFC)". */
export function explainTransformMatch(output: string, expected: string, options: { normalizeUnicode: boolean; trim: boolean; ignoreCase: boolean }): string {
  const reasons: string[] = [];
  if (options.normalizeUnicode && nfc(output) !== output) reasons.push("Unicode normalization (NFC)");
  else if (options.normalizeUnicode && nfc(expected) !== expected) reasons.push("Unicode normalization (NFC)");
  if (options.trim) {
    const a = options.normalizeUnicode ? nfc(output) : output;
    if (trimInvisible(a) !== a) reasons.push("trimming surrounding whitespace");
  }
  if (options.ignoreCase) {
    const a = prepareText(output, { ...options, ignoreCase: false });
    const b = prepareText(expected, { ...options, ignoreCase: false });
    if (a !== b) reasons.push("ignoring letter case");
  }
  return reasons.length ? ` after ${reasons.join(" and ")}` : "";
}
