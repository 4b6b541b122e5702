import { describe, expect, it } from "vitest";
import { benchRequestSchema } from "./request";

const base = {
  systemId: "s",
  promptId: 1,
  candidates: [{ kind: "recorded", recordedName: "a" }],
  baseline: { kind: "candidate", index: 0 },
  selection: { kind: "all" },
  budget: "",
  repeats: "1",
  concurrency: "8",
  timeoutSeconds: "60",
  judgeModelConfigId: "",
  launchKey: "12345678",
};
const messages = (o: object) => {
  const r = benchRequestSchema.safeParse({ ...base, ...o });
  return r.success ? [] : r.error.issues.map((i) => i.message);
};

describe("New bench form validation", () => {
  it("accepts the defaults and reads empty budget and judge as none", () => {
    const r = benchRequestSchema.parse(base);
    expect(r).toMatchObject({ budget: null, judgeModelConfigId: null, repeats: 1, maxSteps: 5 });
  });
  it("says one clear thing when there is no candidate", () => {
    expect(messages({ candidates: [] })).toEqual(["Add at least one candidate."]);
  });
  it("names the field and its range for numbers that are not whole or out of range", () => {
    expect(messages({ repeats: "2.5" })).toEqual(["Trials per case must be a whole number from 1 to 10."]);
    expect(messages({ repeats: "11" })).toEqual(["Trials per case must be a whole number from 1 to 10."]);
    expect(messages({ timeoutSeconds: "abc" })).toEqual(["The per-trial timeout (seconds) must be a whole number from 1 to 600."]);
    expect(messages({ budget: "0" })).toEqual(["The case budget must be at least 1 (or empty for no limit)."]);
    expect(messages({ budget: "x" })).toEqual(["The case budget must be a whole number of cases (or empty for no limit)."]);
  });
  it("reads a blank spend cap or gate limit as none, and refuses what is not a decimal number instead of reading it as 0 or hex", () => {
    // "  " used to coerce to 0: a stray space set a 0 % limit, which blocks any cost or latency increase.
    expect(benchRequestSchema.parse({ ...base, spendCapUsd: "  ", maxLatencyIncreasePct: " ", maxCostIncreasePct: "\t" })).toMatchObject({
      spendCapUsd: null,
      maxLatencyIncreasePct: null,
      maxCostIncreasePct: null,
    });
    expect(messages({ maxCostIncreasePct: "0x10" })).toEqual(["The cost per case limit (%) must be a number from 0 to 10,000 (or empty for none)."]);
    expect(messages({ maxLatencyIncreasePct: "1,5" })).toEqual(["The p95 latency limit (%) must be a number from 0 to 10,000 (or empty for none)."]);
    expect(messages({ spendCapUsd: "NaN" })).toEqual(["The spend cap (USD) must be a number greater than 0 and at most 1,000,000 (or empty for none)."]);
    expect(benchRequestSchema.parse({ ...base, spendCapUsd: " 2.5 ", maxLatencyIncreasePct: "20", maxCostIncreasePct: 1e1 })).toMatchObject({
      spendCapUsd: 2.5,
      maxLatencyIncreasePct: 20,
      maxCostIncreasePct: 10,
    });
  });
  it("refuses a baseline outside the candidates and duplicate candidates", () => {
    expect(messages({ baseline: { kind: "candidate", index: 3 } })).toEqual(["The baseline must be one of the candidates."]);
    expect(messages({ candidates: [base.candidates[0], base.candidates[0]] })).toEqual(["Candidate 2 is the same as an earlier one."]);
  });
});
