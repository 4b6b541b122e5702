import { describe, expect, it } from "vitest";
import { truncateText } from "../evaluators/text/truncate";
import type { TrialOutcome } from "./queue";
import { capCheck, capJson, capOutcome, STORED_LIMITS } from "./stored-limits";
import type { CheckRecord } from "./types";

const outcome = (o: Partial<TrialOutcome> = {}): TrialOutcome => ({
  id: 1,
  status: "done",
  startedAt: 1,
  finishedAt: 2,
  latencyMs: 1,
  inputTokens: 1,
  outputTokens: 1,
  costUsd: null,
  finishReason: "stop",
  output: "fine",
  record: '{"toolCalls":[]}',
  checks: [{ key: "e0:exact", kind: "exact", label: "Exact match", verdict: "passed", score: 1, message: "Equal.", details: { n: 1 } }],
  error: null,
  ...o,
});

describe("truncateText", () => {
  it("keeps short text and marks what it cut with the original length", () => {
    expect(truncateText("abc", 3)).toBe("abc");
    expect(truncateText("abcdef", 3)).toBe("abc… [truncated, 6 characters]");
    expect(truncateText("x".repeat(5_242_880), 2)).toBe("xx… [truncated, 5,242,880 characters]");
  });

  it("never keeps half of a surrogate pair", () => {
    expect(truncateText("ab😀cd", 3)).toBe("ab… [truncated, 6 characters]");
  });
});

describe("capJson", () => {
  it("returns a value that fits as it is (the same object)", () => {
    const v = { a: "x".repeat(100), b: [1, 2, { c: "y" }] };
    expect(capJson(v, 1_000)).toBe(v);
  });

  it("cuts long strings, marked, until the JSON fits", () => {
    const v = { logs: ["a".repeat(50_000), "short"], note: "b".repeat(50_000), n: 3 };
    const out = capJson(v, 10_000) as { logs: string[]; note: string; n: number };
    expect(JSON.stringify(out).length).toBeLessThanOrEqual(10_000);
    expect(out.logs[0]).toBe(truncateText("a".repeat(50_000), 2_500));
    expect(out.logs[1]).toBe("short");
    expect(out.note.endsWith("… [truncated, 50,000 characters]")).toBe(true);
    expect(out.n).toBe(3);
  });

  it("replaces what no string cut can fit (a huge list) with a marker", () => {
    const v = { values: Array.from({ length: 20_000 }, (_, i) => i) };
    expect(capJson(v, 1_000)).toEqual({ truncated: `[truncated, ${JSON.stringify(v).length.toLocaleString("en-US")} characters of JSON]` });
  });
});

describe("capOutcome", () => {
  it("leaves an outcome within the caps untouched (the same object)", () => {
    const o = outcome();
    expect(capOutcome(o)).toBe(o);
    expect(capCheck(o.checks![0])).toBe(o.checks![0]);
  });

  it("caps the error, the output, each check's message, label and details, and the record", () => {
    const huge = "z".repeat(5_000_000);
    const check: CheckRecord = {
      key: "c1",
      kind: "judge",
      label: huge,
      verdict: "failed",
      score: 0,
      message: huge,
      details: { judge: { prompt: huge, answer: "fail" } },
    };
    const o = capOutcome(
      outcome({
        status: "error",
        error: huge,
        output: huge,
        checks: [check],
        record: JSON.stringify({ renderedMessages: [{ role: "user", content: huge }], attempts: 2 }),
      }),
    );
    const marker = "… [truncated, 5,000,000 characters]";
    expect(o.error!.length).toBe(STORED_LIMITS.message + marker.length);
    expect(o.error!.endsWith(marker)).toBe(true);
    expect(o.output!.length).toBe(STORED_LIMITS.output + marker.length);
    const c = o.checks![0];
    expect([c.message.length, c.label.length]).toEqual([STORED_LIMITS.message + marker.length, STORED_LIMITS.label + marker.length]);
    expect(JSON.stringify(c.details).length).toBeLessThanOrEqual(STORED_LIMITS.details);
    expect((c.details as { judge: { answer: string } }).judge.answer).toBe("fail");
    expect(o.record!.length).toBeLessThanOrEqual(STORED_LIMITS.record);
    const record = JSON.parse(o.record!) as { renderedMessages: { content: string }[]; attempts: number };
    expect(record.attempts).toBe(2);
    expect(record.renderedMessages[0].content.endsWith(marker)).toBe(true);
    // The original is not changed (the executor's objects stay as they were).
    expect(check.message.length).toBe(5_000_000);
  });

  it("replaces a record that is not JSON and over the cap with a marker", () => {
    const o = capOutcome(outcome({ record: "{".repeat(STORED_LIMITS.record + 1) }));
    expect(JSON.parse(o.record!)).toEqual({ truncated: `… [truncated, ${(STORED_LIMITS.record + 1).toLocaleString("en-US")} characters]` });
  });
});
