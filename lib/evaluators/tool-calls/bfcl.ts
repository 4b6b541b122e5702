/**
 * Converter from Berkeley Function Calling Leaderboard (BFCL) ground truth to a
 * `tool_call_syntax` spec.
 *
 * BFCL's "possible answer" format (see shared/datasets/README.md) is a list of expected calls, each
 * `{ tool_name: { argument: [accepted values...] } }`:
 * - any one of an argument's accepted values is correct;
 * - `""` among them means the argument may be left out (→ `required: false`; `""` is kept, which
 *   also marks it omittable);
 * - a list-valued argument is written as a list of lists (each inner list is one accepted value);
 * - a dict-valued argument is a dict whose values are again accepted-value lists; such dicts (also
 *   inside lists) are expanded into every concrete combination, a `""` meaning the key may be absent;
 * - arguments not listed must not be passed (→ `extraArguments: "forbid"`);
 * - in parallel rows the calls may come in any order (→ `order: "unordered"`), and no other call
 *   may be made (→ `extraCalls: "forbid"`).
 * BFCL's checker accepts an integer where a float is expected; our values compare numbers by value,
 * so that holds. Unlike BFCL's checker, strings compare exactly (BFCL also ignores case, spaces and
 * some punctuation in strings).
 */
import type { ArgumentRule, ExpectedCall, ToolCallSyntaxSpec } from "../spec";

/** Most concrete values one dict-valued accepted value may expand into. */
export const MAX_BFCL_EXPANSION = 1000;

const OMIT = Symbol("omit");

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A BFCL nested dict: an object whose every value is an accepted-values list. */
function isBfclDict(v: unknown): v is Record<string, unknown[]> {
  return isPlainObject(v) && Object.values(v).every((x) => Array.isArray(x));
}

function checkSize(n: number, where: string): void {
  if (n > MAX_BFCL_EXPANSION) throw new Error(`BFCL ground truth at ${where} expands into more than ${MAX_BFCL_EXPANSION} accepted values`);
}

/** Every concrete value one accepted value stands for (expands nested BFCL dicts). */
function expandValue(value: unknown, where: string): unknown[] {
  if (Array.isArray(value)) {
    let combos: unknown[][] = [[]];
    value.forEach((item, i) => {
      const options = expandValue(item, `${where}[${i}]`);
      const next: unknown[][] = [];
      for (const c of combos) for (const o of options) next.push([...c, o]);
      checkSize(next.length, where);
      combos = next;
    });
    return combos;
  }
  if (isBfclDict(value)) {
    let combos: Record<string, unknown>[] = [{}];
    for (const [key, accepted] of Object.entries(value)) {
      const options: (unknown | typeof OMIT)[] = [];
      for (const a of accepted) {
        if (a === "") options.push(OMIT);
        else options.push(...expandValue(a, `${where}.${key}`));
      }
      const next: Record<string, unknown>[] = [];
      for (const c of combos) for (const o of options) next.push(o === OMIT ? { ...c } : { ...c, [key]: o });
      checkSize(next.length, where);
      combos = next;
    }
    return combos;
  }
  return [value];
}

/**
 * Converts one BFCL ground-truth list into a `tool_call_syntax` spec with a single alternative.
 * @param groundTruth `[{ tool_name: { arg: [accepted values...] } }, ...]`
 * @param options.order `unordered` (default; BFCL parallel rows) or `ordered`
 * @returns a version-1 spec (unordered, extra calls and extra arguments forbidden)
 * @throws Error when the ground truth is not in BFCL's shape (names the offending position), or a
 *   nested dict expands into more than {@link MAX_BFCL_EXPANSION} values
 */
export function bfclGroundTruthToSpec(groundTruth: unknown, options: { order?: "ordered" | "unordered" } = {}): ToolCallSyntaxSpec {
  if (!Array.isArray(groundTruth)) throw new Error("BFCL ground truth must be a list of calls");
  const calls: ExpectedCall[] = groundTruth.map((entry, i) => {
    if (!isPlainObject(entry) || Object.keys(entry).length !== 1) throw new Error(`BFCL ground truth call ${i} must be an object with exactly one tool name`);
    const [toolName, params] = Object.entries(entry)[0];
    if (!isPlainObject(params)) throw new Error(`BFCL ground truth call ${i} (${toolName}): arguments must be an object`);
    const args: Record<string, ArgumentRule> = {};
    for (const [name, accepted] of Object.entries(params)) {
      if (!Array.isArray(accepted)) throw new Error(`BFCL ground truth call ${i} (${toolName}), argument "${name}": accepted values must be a list`);
      const values: unknown[] = [];
      for (const a of accepted) {
        if (a === "") values.push("");
        else values.push(...expandValue(a, `call ${i}.${name}`));
      }
      args[name] = { required: !accepted.includes(""), acceptedValues: values as ArgumentRule["acceptedValues"] };
    }
    return { toolName, arguments: args, extraArguments: "forbid" };
  });
  return {
    kind: "tool_call_syntax",
    version: 1,
    alternatives: [{ order: options.order ?? "unordered", calls, extraCalls: "forbid" }],
  };
}
