import { describe, expect, it } from "vitest";
import { openMemoryDatabase } from "@/db/client";
import { getManifest } from "@/db/queries/benches";
import { listCases, saveCaseRevision } from "@/db/queries/cases";
import { prepareBench } from "./prepare";
import { recordedRequest, recordedSuite, runBench } from "./test-support/recorded-bench";

// Column `bad` fails every case; case q1 is tagged `refunds`.
const suite = [
  { key: "q1", expected: "a1", answers: { bad: "wrong", good: "a1" }, tags: ["refunds"] },
  { key: "q2", expected: "a2", answers: { bad: "wrong", good: "a2" } },
  { key: "q3", expected: "a3", answers: { bad: "wrong", good: "a3" } },
];

/** A suite after a bench of `bad` retained its three failing cases. */
async function withRetained() {
  const db = openMemoryDatabase();
  const promptId = await recordedSuite(db, suite);
  const first = await runBench(db, recordedRequest(promptId, ["bad"]));
  expect(first.summary!.retained).toBe(3);
  return { db, promptId };
}

describe("retained regression cases in a selection", () => {
  it("join a selection by default, counted in the plan, and can be left out", async () => {
    const { db, promptId } = await withRetained();
    const joined = await prepareBench(db, recordedRequest(promptId, ["good"], { selection: { kind: "tag", tag: "refunds" } }));
    // q1's copy is a duplicate of q1; the copies of q2 and q3 joined the one-case selection.
    expect(joined.plan.manifest.filter((m) => m.included).map((m) => m.caseKey)).toEqual(["q1", "q2~retained", "q3~retained"]);
    expect(joined.plan.retainedJoined).toBe(2);
    expect(joined.plan.warnings.join(" ")).toMatch(/2 of the 3 included cases are retained regression cases/);
    const left = await prepareBench(db, recordedRequest(promptId, ["good"], { selection: { kind: "tag", tag: "refunds" }, includeRetained: false }));
    expect(left.plan.manifest.map((m) => m.caseKey)).toEqual(["q1"]);
    expect(left.plan.retainedJoined).toBe(0);
    expect(left.settings.includeRetained).toBe(false);
    // Left out of a source selection naming them, nothing remains: a clear error, not an empty bench.
    await expect(
      prepareBench(db, recordedRequest(promptId, ["good"], { selection: { kind: "source", source: "retained" }, includeRetained: false })),
    ).rejects.toThrow(/No case of prompt answerer matches source retained/);
  });

  it("a user's correction of a retained case runs instead of the original, never both", async () => {
    const { db, promptId } = await withRetained();
    const copy = (await listCases(db, { systemId: "rec", source: "retained" })).rows.find((r) => r.caseKey === "q2~retained")!;
    // The user says the right answer is "wrong" after all: the correction must be what runs.
    await saveCaseRevision(db, copy.id, 1, { input: "question q2", expected: "wrong", notes: "", history: [], variables: [], context: [] });
    const bench = await runBench(db, recordedRequest(promptId, ["bad"]));
    const manifest = await getManifest(db, bench.id);
    expect(manifest.map((m) => [m.caseKey, m.included, m.reason])).toEqual([
      ["q1", true, null],
      ["q2", false, "replaced by its correction `q2~retained`"],
      ["q2~retained", true, null],
      ["q3", true, null],
      ["q1~retained", false, "duplicate (its original case is already included)"],
      ["q3~retained", false, "duplicate (its original case is already included)"],
    ]);
    // Scored against the corrected expectation: `bad` now passes that case.
    const stats = bench.summary!.candidates[0].stats;
    expect(stats.passRate).toEqual({ passed: 1, scored: 3, rate: 1 / 3 });
  });
});
