/**
 * Tool-call matching for `tool_call_syntax` (issue 4; the spec format follows the eval-case
 * reference in shared/seeds/000).
 *
 * An expected call matches an observed call when:
 * - the tool names are equal (case-sensitive);
 * - the observed arguments are a JSON object (a JSON string is parsed first; an unparsable string
 *   never matches, and the message says it could not be parsed);
 * - every listed argument is present with one of its `acceptedValues` (values compare as in
 *   values.ts: numbers by value, never equal to strings, arrays in order, key order ignored), or
 *   absent while omittable (`required: false`, or `""` among the accepted values);
 * - with `extraArguments: "forbid"` (default) no other argument is present.
 *
 * An alternative matches when its calls match the observed calls:
 * - `unordered` (default): a one-to-one assignment of expected to observed calls found with
 *   augmenting paths (maximum bipartite matching, Kuhn's algorithm), so one observed call never
 *   satisfies two expected calls and the result never depends on the order of the calls;
 * - `ordered`: in this order; with extra calls allowed the expected calls must form a subsequence
 *   of the observed ones (earliest-match greedy, which is exact for subsequences);
 * - `extraCalls: "forbid"` (default): no observed call may be left unmatched.
 *
 * The check passes when any alternative matches.
 */
import { SPEC_DEFAULTS, type ExpectedCall, type ToolCallAlternative, type ToolCallSyntaxSpec } from "../spec";
import type { NormalizedToolCall } from "../types";
import { parseToolArguments } from "./normalize";
import { formatValue, typeWord, valuesEqual } from "./values";

/** An argument rule with defaults applied. */
interface CompiledArgument {
  name: string;
  /** Absence is accepted (`required: false` or `""` among the accepted values). */
  omittable: boolean;
  /** Accepted values; `null` means any value. */
  accepted: readonly unknown[] | null;
}

/** An expected call with defaults applied. */
export interface CompiledCall {
  toolName: string;
  args: readonly CompiledArgument[];
  argNames: ReadonlySet<string>;
  forbidExtraArguments: boolean;
  /** Short signature for messages, e.g. `lookup_policy(topic="returns")`. */
  label: string;
}

/** An alternative with defaults applied. */
export interface CompiledAlternative {
  ordered: boolean;
  forbidExtraCalls: boolean;
  calls: readonly CompiledCall[];
}

/** An observed call ready for matching. */
export interface PreparedCall {
  toolName: string;
  /** Parsed arguments when they are a JSON object, else `null`. */
  args: Record<string, unknown> | null;
  /** Why `args` is null: unparsable JSON string, or not an object. */
  argsProblem?: string;
}

/** Outcome of matching one alternative. */
export interface AlternativeOutcome {
  ok: boolean;
  /** Number of expected calls satisfied (size of the best assignment). */
  matched: number;
  /** expected index → observed index (−1 when unmatched). */
  assignment: number[];
  /** Why it failed (first unmet expectation), when `ok` is false. */
  problem?: string;
}

function describeExpectedArgs(call: ExpectedCall): string {
  const parts: string[] = [];
  for (const [name, rule] of Object.entries(call.arguments ?? {})) {
    const vals = rule.acceptedValues?.filter((v) => v !== "");
    const optional = rule.required === false || rule.acceptedValues?.includes("");
    const value = vals && vals.length > 0 ? formatValue(vals[0], 30) + (vals.length > 1 ? "|…" : "") : "*";
    parts.push(`${name}${optional ? "?" : ""}=${value}`);
  }
  const s = parts.join(", ");
  return s.length > 100 ? s.slice(0, 99) + "…" : s;
}

/** Applies defaults to one expected call. */
export function compileCall(call: ExpectedCall): CompiledCall {
  const args: CompiledArgument[] = [];
  for (const [name, rule] of Object.entries(call.arguments ?? {})) {
    const accepted = rule.acceptedValues ?? null;
    const required = rule.required ?? SPEC_DEFAULTS.argumentRequired;
    args.push({ name, omittable: !required || (accepted !== null && accepted.includes("")), accepted });
  }
  return {
    toolName: call.toolName,
    args,
    argNames: new Set(args.map((a) => a.name)),
    forbidExtraArguments: (call.extraArguments ?? SPEC_DEFAULTS.extraArguments) === "forbid",
    label: `${call.toolName}(${describeExpectedArgs(call)})`,
  };
}

/** Applies defaults to one alternative. */
export function compileAlternative(alt: ToolCallAlternative): CompiledAlternative {
  return {
    ordered: (alt.order ?? SPEC_DEFAULTS.order) === "ordered",
    forbidExtraCalls: (alt.extraCalls ?? SPEC_DEFAULTS.extraCalls) === "forbid",
    calls: alt.calls.map(compileCall),
  };
}

/** Applies defaults to a whole spec. */
export function compileToolCallSpec(spec: ToolCallSyntaxSpec): CompiledAlternative[] {
  return spec.alternatives.map(compileAlternative);
}

/** Prepares an observed call: parses string arguments, checks they form an object. */
export function prepareCall(call: NormalizedToolCall): PreparedCall {
  let input = call.input;
  let problem = call.argumentsError;
  if (typeof input === "string") {
    const parsed = parseToolArguments(input);
    input = parsed.input;
    problem = parsed.error;
  }
  if (problem !== undefined) return { toolName: call.toolName, args: null, argsProblem: `its arguments could not be parsed as JSON (${problem})` };
  if (input === undefined || input === null) return { toolName: call.toolName, args: {} };
  if (typeof input !== "object" || Array.isArray(input))
    return { toolName: call.toolName, args: null, argsProblem: `its arguments are ${typeWord(input)}, not a JSON object` };
  return { toolName: call.toolName, args: input as Record<string, unknown> };
}

const hasOwn = Object.prototype.hasOwnProperty;

/** True when the observed call satisfies the expected call (fast path, no messages). */
export function callMatches(expected: CompiledCall, observed: PreparedCall): boolean {
  if (expected.toolName !== observed.toolName) return false;
  const args = observed.args;
  if (args === null) return false;
  const rules = expected.args;
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i];
    const present = hasOwn.call(args, rule.name) && args[rule.name] !== undefined;
    if (!present) {
      if (!rule.omittable) return false;
      continue;
    }
    const accepted = rule.accepted;
    if (accepted === null) continue;
    const value = args[rule.name];
    let ok = false;
    for (let k = 0; k < accepted.length; k++) {
      if (valuesEqual(accepted[k], value)) {
        ok = true;
        break;
      }
    }
    if (!ok) return false;
  }
  if (expected.forbidExtraArguments) {
    for (const key in args) {
      if (hasOwn.call(args, key) && args[key] !== undefined && !expected.argNames.has(key)) return false;
    }
  }
  return true;
}

/** Every reason the observed call does not satisfy the expected one (empty when it does). */
export function callProblems(expected: CompiledCall, observed: PreparedCall): string[] {
  if (expected.toolName !== observed.toolName)
    return [`it calls ${observed.toolName === "" ? "a tool with no name" : `"${observed.toolName}"`} instead of "${expected.toolName}"`];
  const args = observed.args;
  if (args === null) return [observed.argsProblem ?? "its arguments are not a JSON object"];
  const problems: string[] = [];
  for (const rule of expected.args) {
    const present = hasOwn.call(args, rule.name) && args[rule.name] !== undefined;
    if (!present) {
      if (!rule.omittable) problems.push(`required argument "${rule.name}" is missing`);
      continue;
    }
    if (rule.accepted === null) continue;
    const value = args[rule.name];
    if (!rule.accepted.some((v) => valuesEqual(v, value))) {
      const shown = rule.accepted.filter((v) => v !== "");
      const list =
        shown
          .slice(0, 4)
          .map((v) => formatValue(v, 40))
          .join(", ") + (shown.length > 4 ? `, … (${shown.length} values)` : "");
      const typeNote =
        shown.length > 0 &&
        shown.every((v) => typeof v !== typeof value || Array.isArray(v) !== Array.isArray(value)) &&
        shown.some((v) => String(v) === String(value))
          ? ` (${typeWord(value)}, while the accepted value is ${typeWord(shown[0])})`
          : "";
      problems.push(`argument "${rule.name}" is ${formatValue(value, 60)}${typeNote}; accepted: ${shown.length === 1 ? list : `one of ${list}`}`);
    }
  }
  if (expected.forbidExtraArguments) {
    const extra = Object.keys(args).filter((k) => args[k] !== undefined && !expected.argNames.has(k));
    if (extra.length > 0)
      problems.push(`unexpected argument${extra.length > 1 ? "s" : ""} ${extra.map((k) => `"${k}"`).join(", ")} (extra arguments are forbidden)`);
  }
  return problems;
}

/** `#2 get_order({"orderId":"o1"})`-style label of an observed call. */
export function observedLabel(observed: PreparedCall, index: number, raw?: NormalizedToolCall): string {
  const args = observed.args !== null ? formatValue(observed.args, 80) : formatValue(raw?.input, 80);
  return `#${index + 1} ${observed.toolName || "(no name)"}(${args})`;
}

/** Kuhn's augmenting-path maximum bipartite matching. Returns expected → observed (−1 = unmatched). */
function maxMatching(nExpected: number, nObserved: number, compatible: (e: number, o: number) => boolean): number[] {
  const ownerOf = new Array<number>(nObserved).fill(-1);
  const assign = new Array<number>(nExpected).fill(-1);
  const seen = new Array<boolean>(nObserved);
  const tryAssign = (e: number): boolean => {
    for (let o = 0; o < nObserved; o++) {
      if (seen[o] || !compatible(e, o)) continue;
      seen[o] = true;
      if (ownerOf[o] === -1 || tryAssign(ownerOf[o])) {
        ownerOf[o] = e;
        assign[e] = o;
        return true;
      }
    }
    return false;
  };
  for (let e = 0; e < nExpected; e++) {
    seen.fill(false);
    tryAssign(e);
  }
  return assign;
}

function ordinal(i: number): string {
  return `expected call ${i + 1}`;
}

/** Explains why expected call `e` found no observed call (none compatible at all). */
function explainUnmatched(expected: CompiledCall, e: number, observed: readonly PreparedCall[], from = 0): string {
  const sameName: number[] = [];
  for (let o = from; o < observed.length; o++) if (observed[o].toolName === expected.toolName) sameName.push(o);
  if (sameName.length === 0) {
    const where = from > 0 ? ` after call #${from}` : "";
    if (observed.length === 0) return `${ordinal(e)} ${expected.label} was not made: no tool was called.`;
    const names = [...new Set(observed.slice(from).map((c) => c.toolName || "(no name)"))];
    return `${ordinal(e)} ${expected.label} was not made${where}; ${names.length ? `observed calls: ${names.join(", ")}` : "no calls left"}.`;
  }
  let best = sameName[0];
  let bestProblems = callProblems(expected, observed[best]);
  for (const o of sameName.slice(1)) {
    const p = callProblems(expected, observed[o]);
    if (p.length < bestProblems.length) {
      best = o;
      bestProblems = p;
    }
  }
  return `${ordinal(e)} ${expected.label} is not satisfied by call #${best + 1} ${observed[best].toolName}: ${bestProblems.join("; ")}.`;
}

/** Matches one alternative against the prepared observed calls. */
export function matchAlternative(alt: CompiledAlternative, observed: readonly PreparedCall[]): AlternativeOutcome {
  const nE = alt.calls.length;
  const nO = observed.length;
  if (alt.ordered) return matchOrdered(alt, observed);
  // Unordered: memoised compatibility, maximum matching.
  const memo = new Int8Array(nE * nO); // 0 unknown, 1 yes, 2 no
  const compatible = (e: number, o: number): boolean => {
    const k = e * nO + o;
    const m = memo[k];
    if (m !== 0) return m === 1;
    const ok = callMatches(alt.calls[e], observed[o]);
    memo[k] = ok ? 1 : 2;
    return ok;
  };
  const assignment = maxMatching(nE, nO, compatible);
  let matched = 0;
  for (const a of assignment) if (a >= 0) matched++;
  if (matched < nE) {
    const e = assignment.indexOf(-1);
    const usable: number[] = [];
    for (let o = 0; o < nO; o++) if (compatible(e, o)) usable.push(o);
    let problem: string;
    if (usable.length > 0) {
      const holders = usable.map((o) => assignment.indexOf(o)).filter((x) => x >= 0);
      problem =
        `${ordinal(e)} ${alt.calls[e].label} has no call left to match: ` +
        `${usable.map((o) => `call #${o + 1}`).join(", ")} ${usable.length === 1 ? "matches it but is" : "match it but are"} already used by ` +
        `${[...new Set(holders)].map((x) => ordinal(x)).join(", ")} (each observed call satisfies at most one expected call).`;
    } else problem = explainUnmatched(alt.calls[e], e, observed);
    return { ok: false, matched, assignment, problem };
  }
  if (alt.forbidExtraCalls && nO > nE) {
    const used = new Set(assignment);
    const extras: number[] = [];
    for (let o = 0; o < nO; o++) if (!used.has(o)) extras.push(o);
    return {
      ok: false,
      matched,
      assignment,
      problem: `unexpected extra call${extras.length > 1 ? "s" : ""} ${extras
        .slice(0, 3)
        .map((o) => `#${o + 1} ${observed[o].toolName || "(no name)"}`)
        .join(", ")}${extras.length > 3 ? ", …" : ""} (${nO} calls made, ${nE} expected; extra calls are forbidden).`,
    };
  }
  return { ok: true, matched, assignment };
}

function matchOrdered(alt: CompiledAlternative, observed: readonly PreparedCall[]): AlternativeOutcome {
  const nE = alt.calls.length;
  const nO = observed.length;
  const assignment = new Array<number>(nE).fill(-1);
  if (alt.forbidExtraCalls) {
    let matched = 0;
    for (let i = 0; i < Math.max(nE, nO); i++) {
      if (i >= nE)
        return {
          ok: false,
          matched,
          assignment,
          problem: `unexpected extra call #${i + 1} ${observed[i].toolName || "(no name)"} (${nO} calls made, ${nE} expected; extra calls are forbidden).`,
        };
      if (i >= nO)
        return {
          ok: false,
          matched,
          assignment,
          problem: `${ordinal(i)} ${alt.calls[i].label} is missing: only ${nO} call${nO === 1 ? " was" : "s were"} made.`,
        };
      if (!callMatches(alt.calls[i], observed[i])) {
        const problems = callProblems(alt.calls[i], observed[i]);
        return {
          ok: false,
          matched,
          assignment,
          problem: `${ordinal(i)} ${alt.calls[i].label} is not satisfied by call #${i + 1} (calls must come in order): ${problems.join("; ")}.`,
        };
      }
      assignment[i] = i;
      matched++;
    }
    return { ok: true, matched, assignment };
  }
  // Subsequence: earliest match for each expected call in turn.
  let pos = 0;
  for (let e = 0; e < nE; e++) {
    let found = -1;
    for (let o = pos; o < nO; o++) {
      if (callMatches(alt.calls[e], observed[o])) {
        found = o;
        break;
      }
    }
    if (found < 0) {
      const problem =
        pos > 0
          ? `${explainUnmatched(alt.calls[e], e, observed, pos).replace(/\.$/, "")} (it must come after call #${pos}, which matched ${ordinal(e - 1)}).`
          : explainUnmatched(alt.calls[e], e, observed, 0);
      return { ok: false, matched: e, assignment, problem };
    }
    assignment[e] = found;
    pos = found + 1;
  }
  return { ok: true, matched: nE, assignment };
}
