import { describe, expect, it } from "vitest";
import { runStaticCheck } from "../registry";
import type { ArgumentRule, ExpectedCall, ToolCallAlternative } from "../spec";
import type { EvaluationTrial } from "../types";

/** An expected call: args map NAME → accepted values (array), or a full rule object. */
function call(toolName: string, args: Record<string, unknown[] | ArgumentRule> = {}, extraArguments?: "forbid" | "allow"): ExpectedCall {
  const rules: Record<string, ArgumentRule> = {};
  for (const [k, v] of Object.entries(args)) rules[k] = Array.isArray(v) ? { required: true, acceptedValues: v as ArgumentRule["acceptedValues"] } : v;
  return extraArguments ? { toolName, arguments: rules, extraArguments } : { toolName, arguments: rules };
}
function alt(calls: ExpectedCall[], opts: Partial<Pick<ToolCallAlternative, "order" | "extraCalls">> = {}): ToolCallAlternative {
  return { calls, ...opts };
}
function spec(...alternatives: ToolCallAlternative[]) {
  return { kind: "tool_call_syntax", version: 1, alternatives } as const;
}
/** ai SDK-shaped calls. */
const sdk = (...calls: Array<[string, unknown]>): EvaluationTrial => ({
  output: "",
  toolCalls: calls.map(([toolName, input], i) => ({ type: "tool-call", toolCallId: `c${i}`, toolName, input })),
});
const raw = (...toolCalls: unknown[]): EvaluationTrial => ({ output: "", toolCalls });

const policy = spec(alt([call("lookup_policy", { topic: ["returns"] }, "forbid")], { order: "unordered", extraCalls: "forbid" }));

type Row = [name: string, spec: unknown, trial: EvaluationTrial, verdict: "passed" | "failed", message: string];

const rows: Row[] = [
  ["seed example passes", policy, sdk(["lookup_policy", { topic: "returns" }]), "passed", "match the expected 1 call"],
  ["JSON-string arguments are parsed (ai SDK)", policy, sdk(["lookup_policy", '{"topic":"returns"}']), "passed", "match"],
  ["OpenAI raw shape", policy, raw({ id: "x", type: "function", function: { name: "lookup_policy", arguments: '{"topic": "returns"}' } }), "passed", "match"],
  ["{name, arguments} shape", policy, raw({ name: "lookup_policy", arguments: { topic: "returns" } }), "passed", "match"],
  ["wrong value names the argument", policy, sdk(["lookup_policy", { topic: "refunds" }]), "failed", 'argument "topic" is "refunds"; accepted: "returns"'],
  ["unparsable JSON-string arguments", policy, sdk(["lookup_policy", '{"topic": "returns"']), "failed", "its arguments could not be parsed as JSON"],
  [
    "tool names are case-sensitive",
    policy,
    sdk(["Lookup_Policy", { topic: "returns" }]),
    "failed",
    'expected call 1 lookup_policy(topic="returns") was not made; observed calls: Lookup_Policy',
  ],
  ["key order never matters", spec(alt([call("f", { a: [1], b: [2] })])), sdk(["f", '{"b":2,"a":1}']), "passed", "match"],
  ["nested object key order never matters", spec(alt([call("f", { o: [{ x: 1, y: [1, 2] }] })])), sdk(["f", { o: { y: [1, 2], x: 1 } }]), "passed", "match"],
  ["3 equals 3.0", spec(alt([call("f", { n: [3] })])), sdk(["f", '{"n": 3.0}']), "passed", "match"],
  ["3.5 does not equal 3", spec(alt([call("f", { n: [3] })])), sdk(["f", { n: 3.5 }]), "failed", 'argument "n" is 3.5'],
  [
    "a number never equals a string",
    spec(alt([call("f", { n: [3] })])),
    sdk(["f", { n: "3" }]),
    "failed",
    'argument "n" is "3" (a string, while the accepted value is a number)',
  ],
  ["a string never equals a number", spec(alt([call("f", { n: ["3"] })])), sdk(["f", { n: 3 }]), "failed", "(a number, while the accepted value is a string)"],
  ['true does not equal "true"', spec(alt([call("f", { b: [true] })])), sdk(["f", { b: "true" }]), "failed", 'argument "b" is "true"'],
  ["null is a value", spec(alt([call("f", { v: [null] })])), sdk(["f", { v: null }]), "passed", "match"],
  ["arrays compare in order (same order)", spec(alt([call("f", { l: [["a", "b"]] })])), sdk(["f", { l: ["a", "b"] }]), "passed", "match"],
  ["arrays compare in order (other order)", spec(alt([call("f", { l: [["a", "b"]] })])), sdk(["f", { l: ["b", "a"] }]), "failed", 'argument "l" is ["b","a"]'],
  [
    "both orders listed as accepted values",
    spec(
      alt([
        call("f", {
          l: [
            ["a", "b"],
            ["b", "a"],
          ],
        }),
      ]),
    ),
    sdk(["f", { l: ["b", "a"] }]),
    "passed",
    "match",
  ],
  ["array length matters", spec(alt([call("f", { l: [[1, 2]] })])), sdk(["f", { l: [1, 2, 3] }]), "failed", 'argument "l"'],
  [
    "omitted optional argument passes",
    spec(alt([call("f", { a: [1], unit: { required: false, acceptedValues: ["m"] } })])),
    sdk(["f", { a: 1 }]),
    "passed",
    "match",
  ],
  ["omitted required argument fails", spec(alt([call("f", { a: [1], unit: ["m"] })])), sdk(["f", { a: 1 }]), "failed", 'required argument "unit" is missing'],
  ['"" in acceptedValues means it may be omitted', spec(alt([call("f", { a: [1], unit: ["m", ""] })])), sdk(["f", { a: 1 }]), "passed", "match"],
  [
    '"" in acceptedValues still checks a given value',
    spec(alt([call("f", { a: [1], unit: ["m", ""] })])),
    sdk(["f", { a: 1, unit: "km" }]),
    "failed",
    'argument "unit" is "km"; accepted: "m"',
  ],
  ["no acceptedValues: any value, but present", spec(alt([call("f", { q: { required: true } })])), sdk(["f", { q: "anything" }]), "passed", "match"],
  [
    "extraArguments forbid",
    spec(alt([call("f", { a: [1] }, "forbid")])),
    sdk(["f", { a: 1, verbose: true }]),
    "failed",
    'unexpected argument "verbose" (extra arguments are forbidden)',
  ],
  ["extraArguments allow", spec(alt([call("f", { a: [1] }, "allow")])), sdk(["f", { a: 1, verbose: true }]), "passed", "match"],
  ["extraArguments default is forbid", spec(alt([call("f", { a: [1] })])), sdk(["f", { a: 1, z: 0 }]), "failed", 'unexpected argument "z"'],
  [
    "extraCalls forbid",
    spec(alt([call("f")], { extraCalls: "forbid" })),
    sdk(["f", {}], ["g", {}]),
    "failed",
    "unexpected extra call #2 g (2 calls made, 1 expected; extra calls are forbidden)",
  ],
  ["extraCalls allow", spec(alt([call("f")], { extraCalls: "allow" })), sdk(["g", {}], ["f", {}]), "passed", "match"],
  ["unordered accepts any order", spec(alt([call("a"), call("b")], { order: "unordered" })), sdk(["b", {}], ["a", {}]), "passed", "match the expected 2 calls"],
  ["ordered rejects another order", spec(alt([call("a"), call("b")], { order: "ordered" })), sdk(["b", {}], ["a", {}]), "failed", "(calls must come in order)"],
  ["ordered accepts the order", spec(alt([call("a"), call("b")], { order: "ordered" })), sdk(["a", {}], ["b", {}]), "passed", "match"],
  [
    "ordered + extraCalls allow: subsequence",
    spec(alt([call("a"), call("b")], { order: "ordered", extraCalls: "allow" })),
    sdk(["a", {}], ["x", {}], ["b", {}]),
    "passed",
    "match",
  ],
  [
    "ordered + extraCalls allow: wrong order",
    spec(alt([call("a"), call("b")], { order: "ordered", extraCalls: "allow" })),
    sdk(["b", {}], ["a", {}]),
    "failed",
    "it must come after call #2, which matched expected call 1",
  ],
  [
    "one-to-one: one observed call never satisfies two expected calls",
    spec(alt([call("get", { id: [1] }), call("get", { id: [1] })], { extraCalls: "allow" })),
    sdk(["get", { id: 1 }]),
    "failed",
    "expected call 2 get(id=1) has no call left to match: call #1 matches it but is already used by expected call 1",
  ],
  [
    "one-to-one: proper matching where first-fit would fail",
    spec(alt([call("get", { id: { required: true } }), call("get", { id: [2] })])),
    sdk(["get", { id: 2 }], ["get", { id: 1 }]),
    "passed",
    "match the expected 2 calls",
  ],
  [
    "one-to-one: three calls, augmenting path of length 2",
    spec(alt([call("f", { x: [1, 2] }), call("f", { x: [1] }), call("f", { x: [2, 3] })])),
    sdk(["f", { x: 1 }], ["f", { x: 2 }], ["f", { x: 3 }]),
    "passed",
    "match the expected 3 calls",
  ],
  [
    "parallel calls of one tool with different arguments",
    spec(alt([call("spotify.play", { artist: ["Taylor Swift"], duration: [20] }), call("spotify.play", { artist: ["Maroon 5"], duration: [15] })])),
    raw(
      { name: "spotify.play", arguments: { artist: "Maroon 5", duration: 15 } },
      { name: "spotify.play", arguments: { artist: "Taylor Swift", duration: 20.0 } },
    ),
    "passed",
    "match the expected 2 calls",
  ],
  ["several alternatives: the second matches", spec(alt([call("a")]), alt([call("b")])), sdk(["b", {}]), "passed", "(alternative 2 of 2)"],
  [
    "several alternatives: none matches, closest reported",
    spec(alt([call("a"), call("b")]), alt([call("c", { q: ["x"] })])),
    sdk(["c", { q: "y" }]),
    "failed",
    "None of the 2 alternatives matched. Closest is alternative 1: expected call 1 a() was not made; observed calls: c",
  ],
  ["no calls expected, none made", spec(alt([], { extraCalls: "forbid" })), sdk(), "passed", "No tool was called, as expected."],
  ["no calls expected, one made", spec(alt([], { extraCalls: "forbid" })), sdk(["f", {}]), "failed", "unexpected extra call #1 f"],
  ["a call expected, none made", policy, sdk(), "failed", "was not made: no tool was called.\nNo tool calls were made."],
  ["arguments that are not an object", spec(alt([call("f")])), sdk(["f", "[1,2]"]), "failed", "its arguments are an array, not a JSON object"],
];

describe("tool_call_syntax", () => {
  it("has at least 30 golden cases", () => expect(rows.length).toBeGreaterThanOrEqual(30));

  it.each(rows)("%s", (_name, s, t, verdict, message) => {
    const r = runStaticCheck(s, t);
    expect(r.verdict).toBe(verdict);
    expect(r.message).toContain(message);
    expect(r.score).toBe(verdict === "passed" ? 1 : 0);
  });

  it("lists the observed calls on failure", () => {
    const r = runStaticCheck(policy, sdk(["lookup_policy", { topic: "refunds" }]));
    expect(r.message).toBe(
      'The tool calls do not match: expected call 1 lookup_policy(topic="returns") is not satisfied by call #1 lookup_policy: argument "topic" is "refunds"; accepted: "returns".\n' +
        'Observed calls:\n  #1 lookup_policy({"topic":"refunds"})',
    );
    expect(r.details).toEqual({ closestAlternative: 0, matchedCalls: 0, expectedCalls: 1, observedCalls: 1 });
  });

  it("uses normalizedToolCalls when the trial provides them", () => {
    const r = runStaticCheck(policy, { output: "", toolCalls: [], normalizedToolCalls: [{ toolName: "lookup_policy", input: { topic: "returns" } }] });
    expect(r.verdict).toBe("passed");
  });

  it("a malformed spec is a configuration error", () => {
    const r = runStaticCheck(
      { kind: "tool_call_syntax", alternatives: [{ calls: [{ toolName: "f", arguments: { a: { acceptedValues: [] } } }] }] },
      sdk(["f", {}]),
    );
    expect(r.verdict).toBe("error");
    expect(r.message).toContain("alternatives[0].calls[0].arguments.a.acceptedValues: acceptedValues is empty");
  });
});
