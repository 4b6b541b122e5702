import { describe, expect, it } from "vitest";
import { extractJsonObject, interpretJudgeAnswer } from "./parse";

describe("extractJsonObject", () => {
  it.each([
    ["bare object", '{"verdict":"pass","reason":"ok"}', { verdict: "pass", reason: "ok" }],
    ["prose around", 'Here you go: {"verdict": "fail", "reason": "rude"} Hope it helps!', { verdict: "fail", reason: "rude" }],
    ["code fence", 'Judgement:\n```json\n{"verdict": "pass", "reason": "fine"}\n```', { verdict: "pass", reason: "fine" }],
    ["fence without language", '```\n{"a": 1}\n```', { a: 1 }],
    ["trailing commas", '{"verdict": "pass", "reason": "x", }', { verdict: "pass", reason: "x" }],
    ["trailing comma in array", '{"a": [1, 2,], "b": 1}', { a: [1, 2], b: 1 }],
    ["line comments", '{\n  "verdict": "pass", // looks good\n  "reason": "ok"\n}', { verdict: "pass", reason: "ok" }],
    ["braces inside strings", '{"reason": "uses {braces} and \\"quotes\\"", "verdict": "pass"}', { reason: 'uses {braces} and "quotes"', verdict: "pass" }],
    ["think block skipped", '<think>maybe {"verdict":"fail"}</think>{"verdict":"pass","reason":"r"}', { verdict: "pass", reason: "r" }],
    ["first parsable object wins", 'Schema: {verdict: pass|fail}. Answer: {"verdict":"fail","reason":"no"}', { verdict: "fail", reason: "no" }],
    ["nested", '{"result": {"x": 1}, "verdict": "pass"}', { result: { x: 1 }, verdict: "pass" }],
  ])("%s", (_name, text, expected) => {
    expect(extractJsonObject(text)).toEqual(expected);
  });

  it.each(["no json here", "{ unbalanced", "[1, 2, 3]", ""])("returns undefined for %j", (text) => {
    expect(extractJsonObject(text)).toBeUndefined();
  });
});

describe("interpretJudgeAnswer", () => {
  it.each([
    ["binary pass", { verdict: "pass", reason: "ok" }, "binary", { status: "scored", passed: true, reason: "ok" }],
    ["binary FAIL upper-case", { verdict: "FAIL", reason: "no" }, "binary", { status: "scored", passed: false, reason: "no" }],
    ["binary passed:boolean", { passed: true, explanation: "fine" }, "binary", { status: "scored", passed: true, reason: "fine" }],
    ["binary cannot_observe", { verdict: "cannot_observe", reason: "no tools" }, "binary", { status: "unobservable", reason: "no tools" }],
    ["binary n/a", { verdict: "N/A", reason: "x" }, "binary", { status: "unobservable", reason: "x" }],
    ["binary unknown word", { verdict: "maybe" }, "binary", { status: "malformed", problem: 'the verdict "maybe" is not pass, fail or cannot_observe' }],
    ["binary no verdict", { reason: "x" }, "binary", { status: "malformed", problem: "the answer has no verdict" }],
    ["numeric at threshold", { score: 7, reason: "good", observable: true }, "numeric", { status: "scored", passed: true, rawScore: 7, reason: "good" }],
    ["numeric below threshold", { score: 6, reason: "meh", observable: true }, "numeric", { status: "scored", passed: false, rawScore: 6, reason: "meh" }],
    ["numeric score as text", { rating: "9/10", reason: "great" }, "numeric", { status: "scored", passed: true, rawScore: 9, reason: "great" }],
    ["numeric out of range", { score: 11 }, "numeric", { status: "malformed", problem: "the score 11 is outside 1–10" }],
    ["numeric missing", { reason: "r" }, "numeric", { status: "malformed", problem: "the answer has no score" }],
    ["numeric not observable", { observable: false, score: 1, reason: "n/a" }, "numeric", { status: "unobservable", reason: "n/a" }],
    ["not an object", ["pass"], "binary", { status: "malformed", problem: "the answer is not a JSON object" }],
  ] as const)("%s", (_name, value, mode, expected) => {
    expect(interpretJudgeAnswer(value, mode, 7)).toEqual(expected);
  });
});
