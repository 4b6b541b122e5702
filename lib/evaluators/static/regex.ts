/**
 * `regex`: the output must match a JavaScript regular expression (`pattern`, `flags`).
 *
 * Safety: the pattern runs in-process, and JavaScript's backtracking engine can take exponential
 * time on patterns with nested unbounded repetition such as `(a+)+$`. Such patterns are rejected
 * when the case is saved (and reported as `error` if one reaches a bench). This is a heuristic: it
 * catches nested quantifiers, not every slow pattern (e.g. overlapping alternatives like `(a|a)*`).
 * The output is also limited to {@link MAX_REGEX_SUBJECT} characters.
 */
import type { RegexSpec } from "../spec";
import { configError, failed, passed } from "../result";
import { shortReadable, shortVisible } from "../text/diff";
import { outputOf, type FieldProblem, type StaticRunner } from "./common";

const KIND = "regex";
/** Flags a spec may use: `g` and `d` are accepted and ignored (a check only asks "does it match"). */
const ALLOWED_FLAGS = new Set(["d", "g", "i", "m", "s", "u", "v"]);
/** Longest output (in UTF-16 units) a regex is run on; longer outputs are cut, and the message says so. */
export const MAX_REGEX_SUBJECT = 100_000;

/**
 * Finds a group with unbounded repetition inside that is itself repeated without bound
 * (`(a+)+`, `(\w*)*`, `(x+y?){2,}`): returns the offending fragment, or `null`.
 */
export function findNestedQuantifier(pattern: string): string | null {
  type Frame = { start: number; unbounded: boolean };
  const stack: Frame[] = [{ start: 0, unbounded: false }];
  const unboundedAt = (i: number): number => {
    // Returns the length of an unbounded quantifier at i (`*`, `+`, `{n,}`), or 0.
    const c = pattern[i];
    if (c === "*" || c === "+") return 1;
    if (c === "{") {
      const m = /^\{(\d+),\}/.exec(pattern.slice(i));
      if (m) return m[0].length;
    }
    return 0;
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      i++;
      if (unboundedAt(i + 1)) stack[stack.length - 1].unbounded = true;
      continue;
    }
    if (c === "[") {
      i++;
      if (pattern[i] === "^") i++;
      if (pattern[i] === "]") i++;
      while (i < pattern.length && pattern[i] !== "]") {
        if (pattern[i] === "\\") i++;
        i++;
      }
      if (unboundedAt(i + 1)) stack[stack.length - 1].unbounded = true;
      continue;
    }
    if (c === "(") {
      stack.push({ start: i, unbounded: false });
      continue;
    }
    if (c === ")") {
      const frame = stack.length > 1 ? stack.pop()! : stack[0];
      const q = unboundedAt(i + 1);
      if (q && frame.unbounded) return pattern.slice(frame.start, i + 1 + q);
      if (q || frame.unbounded) stack[stack.length - 1].unbounded = true;
      continue;
    }
    if (unboundedAt(i + 1) && c !== "|" && c !== "^" && c !== "$") stack[stack.length - 1].unbounded = true;
  }
  return null;
}

/** Builds the RegExp for a spec, or returns the problem (bad flags, syntax error, unsafe nesting). */
export function buildRegex(spec: RegexSpec): { regex: RegExp } | { problem: FieldProblem } {
  if (spec.pattern === "") return { problem: { field: "pattern", message: "pattern is empty: it would match every output" } };
  const flags = spec.flags ?? "";
  for (const f of flags) {
    if (!ALLOWED_FLAGS.has(f))
      return {
        problem: {
          field: "flags",
          message: f === "y" ? "flag y (sticky) is not supported: anchor the pattern with ^ instead" : `unknown regular-expression flag "${f}"`,
        },
      };
  }
  const nested = findNestedQuantifier(spec.pattern);
  if (nested)
    return {
      problem: {
        field: "pattern",
        message: `pattern repeats a group that itself repeats without bound ("${nested}"); this can take exponential time on some outputs. Rewrite it without nested repetition.`,
      },
    };
  try {
    return { regex: new RegExp(spec.pattern, flags.replace(/[gd]/g, "")) };
  } catch (e) {
    return { problem: { field: "pattern", message: `pattern is not a valid regular expression: ${(e as Error).message}` } };
  }
}

/** Configuration problems of a `regex` spec. */
export function checkRegex(spec: RegexSpec): FieldProblem[] {
  const built = buildRegex(spec);
  return "problem" in built ? [built.problem] : [];
}

/** Compiles a `regex` spec (the RegExp is built once). Never throws. */
export function compileRegex(spec: RegexSpec): StaticRunner {
  const built = buildRegex(spec);
  if ("problem" in built) {
    const problem = `${built.problem.field}: ${built.problem.message}`;
    return () => configError(KIND, problem);
  }
  const regex = built.regex;
  const shown = `/${spec.pattern}/${(spec.flags ?? "").replace(/[gd]/g, "")}`;
  return (trial) => {
    const full = outputOf(trial);
    const cut = full.length > MAX_REGEX_SUBJECT;
    const output = cut ? full.slice(0, MAX_REGEX_SUBJECT) : full;
    const m = regex.exec(output);
    const note = cut ? ` (only the first ${MAX_REGEX_SUBJECT} characters were searched)` : "";
    if (m)
      return passed(KIND, `The output matches ${shown} at character ${m.index + 1}: "${shortVisible(m[0], 60)}".`, {
        match: m[0].length > 200 ? m[0].slice(0, 200) : m[0],
        index: m.index,
      });
    return failed(KIND, `The output does not match ${shown}${note}.\n  output: ${output.length === 0 ? "⟨empty⟩" : `"${shortReadable(output, 200)}"`}`);
  };
}
