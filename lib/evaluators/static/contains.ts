/**
 * `contains`: the output must contain the expected text as a literal, case-sensitive substring.
 * The expected text is never read as a regular expression (use `regex` for that). Unicode NFC
 * normalisation is on by default; `ignoreCase` and `trim` are opt-in.
 */
import type { ContainsSpec } from "../spec";
import { configError, failed, passed } from "../result";
import { codePointLength, includesIgnoringWhitespace, shortReadable, shortVisible } from "../text/diff";
import { describeTextOptions, nfc, prepareText, resolveTextOptions } from "../text/prepare";
import { emptyExpectedProblem, outputOf, type FieldProblem, type SpecContext, type StaticRunner } from "./common";

const KIND = "contains";
// The ASCII range starts at NUL on purpose.
// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

/** Configuration problems of a `contains` spec (empty expected value). */
export function checkContains(spec: ContainsSpec, context?: SpecContext): FieldProblem[] {
  const p = emptyExpectedProblem(spec.expected, context);
  return p ? [p] : [];
}

/** Compiles a `contains` spec. Never throws. */
export function compileContains(spec: ContainsSpec): StaticRunner {
  const options = resolveTextOptions(spec);
  // `trim` on a needle: the surrounding whitespace of the expected text is ignored; the output is not trimmed.
  const needleOptions = options;
  const haystackOptions = { ...options, trim: false };
  const suffix = describeTextOptions(options);
  const how = suffix ? ` (${suffix})` : "";
  // Per expected text (the spec's, or the case's): prepared forms and its display, computed once.
  let lastRaw: string | undefined;
  let needle = "";
  let needleFolded = "";
  let needleShown = "";
  let needleAscii = true;
  let expectedEmpty = true;
  return (trial) => {
    const expectedValue = spec.expected ?? trial.context?.expected ?? "";
    const source = spec.expected !== undefined ? "spec" : "case";
    if (expectedValue !== lastRaw) {
      lastRaw = expectedValue;
      needle = prepareText(expectedValue, needleOptions);
      needleFolded = prepareText(expectedValue, { ...needleOptions, ignoreCase: true });
      needleShown = shortVisible(expectedValue, 120);
      needleAscii = !NON_ASCII.test(expectedValue);
      expectedEmpty = expectedValue.trim() === "";
    }
    if (expectedEmpty) return configError(KIND, source === "spec" ? "expected is empty" : "expected is not set and the case's expected result is empty");
    const output = outputOf(trial);
    const ascii = !NON_ASCII.test(output);
    // Fast path: a raw hit is a hit under every option (for normalised comparison only when the
    // output is ASCII: NFC may compose a character across the edge of the expected text).
    const rawAt = options.normalizeUnicode && !ascii ? -1 : output.indexOf(expectedValue);
    if (rawAt >= 0) return passed(KIND, `The output contains the expected text (at character ${rawAt + 1}).`);
    const hay = ascii ? (options.ignoreCase ? output.toLowerCase() : output) : prepareText(output, haystackOptions);
    const at = hay.indexOf(needle);
    if (at >= 0) {
      const reasons: string[] = [];
      if (options.normalizeUnicode && (!ascii || !needleAscii) && (nfc(output) !== output || nfc(expectedValue) !== expectedValue))
        reasons.push("Unicode normalization (NFC)");
      if (options.ignoreCase) reasons.push("ignoring letter case");
      if (options.trim) reasons.push("trimming the expected text");
      return passed(KIND, `The output contains the expected text${reasons.length ? " after " + reasons.join(" and ") : ""}.`, {
        normalized: true,
      });
    }
    const hints: string[] = [];
    if (!options.ignoreCase) {
      const ci = (ascii ? output.toLowerCase() : prepareText(output, { ...haystackOptions, ignoreCase: true })).indexOf(needleFolded);
      if (ci >= 0)
        hints.push(
          `It appears with different letter case at character ${ci + 1}: "${shortVisible(output.slice(ci, ci + expectedValue.length), 60)}" (the comparison is case-sensitive).`,
        );
    }
    if (!options.normalizeUnicode && (!ascii || !needleAscii) && nfc(output).includes(nfc(expectedValue)))
      hints.push("It would be found with Unicode normalization (NFC), which is turned off for this check.");
    if (hints.length === 0 && includesIgnoringWhitespace(hay, needle)) hints.push("It appears with different spacing or line breaks.");
    const outLen = ascii ? output.length : codePointLength(output);
    return failed(
      KIND,
      `The output does not contain the expected text${how}.\n  expected text: ${needleShown}\n  output (${outLen} characters): ${
        outLen === 0 ? "⟨empty⟩" : `"${shortReadable(output, 160)}"`
      }${hints.length ? "\n" + hints.join("\n") : ""}`,
      { expected: expectedValue, expectedSource: source },
    );
  };
}
