/**
 * The review's server actions check their input on the server (issue 18): a forged request gets a
 * refusal naming the field, never a stored verdict. Runs against a migrated temp database through
 * `BENCHWORK_DB`.
 */
import { describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { getCalibrationPolicy, trialHumanVerdicts } from "@/db/queries/human-verdicts";
import { withCliDatabase } from "@/cli/test-database";
import { recordedRequest, recordedSuite, runBench } from "@/server/bench/test-support/recorded-bench";
import { correctExpectedAction, recordVerdictAction, setCalibrationPolicyAction } from "./actions";

vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
// Single-user mode: the action runs as the local admin (no request scope for next/headers here; the
// role wrapper itself is tested in server/auth).
vi.mock("@/server/auth/actor", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/server/auth/actor")>();
  return { ...real, currentActor: async () => real.LOCAL_ACTOR };
});

let benchId = 0;
let trialId = 0;
withCliDatabase("review-actions-", async (db) => {
  const promptId = await recordedSuite(db, [{ key: "q1", expected: "a", answers: { col: "a" } }]);
  const bench = await runBench(db, recordedRequest(promptId, ["col"]));
  benchId = bench.id;
  trialId = (db.$client.prepare("SELECT id FROM trials WHERE bench_id = ?").get(bench.id) as { id: number }).id;
});

describe("review actions refuse bad input", () => {
  it("a verdict that is not pass/fail/cant_tell, a key that is not a criterion's, a note too long", async () => {
    const r = await recordVerdictAction({ systemId: "rec", benchId, trialId, checkKey: "e0:exact", verdict: "maybe", note: "x".repeat(2001) });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe("validation");
    expect(Object.keys(r.error.fieldErrors ?? {}).sort()).toEqual(["checkKey", "note", "verdict"]);
  });

  it("a bench of another system, an unknown trial, a criterion the trial does not have: refused, nothing stored", async () => {
    const other = await recordVerdictAction({ systemId: "nope", benchId, trialId, checkKey: "c1", verdict: "pass" });
    expect(other).toMatchObject({ ok: false, error: { code: "not_found" } });
    const unknown = await recordVerdictAction({ systemId: "rec", benchId, trialId: 987654, checkKey: "c1", verdict: "pass" });
    expect(unknown).toMatchObject({ ok: false, error: { code: "not_found" } });
    const noCriterion = await recordVerdictAction({ systemId: "rec", benchId, trialId, checkKey: "c1", verdict: "pass" });
    expect(noCriterion).toMatchObject({ ok: false, error: { code: "validation", fieldErrors: { checkKey: "Unknown criterion of this trial." } } });
    expect(await trialHumanVerdicts(getDb(), trialId)).toEqual([]);
  });

  it("a κ threshold outside [−1, 1], a minimum that is not whole, an empty expected result", async () => {
    const p = await setCalibrationPolicyAction({ systemId: "rec", benchId, kappaThreshold: "2", minReviewed: "1.5" });
    expect(p).toMatchObject({
      ok: false,
      error: { code: "validation", fieldErrors: { kappaThreshold: "κ is at most 1.", minReviewed: "Enter a whole number." } },
    });
    const c = await correctExpectedAction({ systemId: "rec", benchId, trialId, baseRevision: 1, expected: "   " });
    expect(c).toMatchObject({ ok: false, error: { code: "validation", fieldErrors: { expected: "Expected result is required." } } });
  });

  it("an empty κ threshold or minimum is refused, never saved as 0 (which would let any judge gate)", async () => {
    const promptId = (getDb().$client.prepare("SELECT prompt_id AS p FROM benches WHERE id = ?").get(benchId) as { p: number }).p;
    const before = await getCalibrationPolicy(getDb(), promptId);
    for (const blank of ["", "   "]) {
      const r = await setCalibrationPolicyAction({ systemId: "rec", benchId, kappaThreshold: blank, minReviewed: blank });
      expect(r).toMatchObject({
        ok: false,
        error: {
          code: "validation",
          fieldErrors: { kappaThreshold: "Enter a κ threshold from −1 to 1.", minReviewed: "Enter a whole number from 1 to 100,000." },
        },
      });
    }
    const huge = await setCalibrationPolicyAction({ systemId: "rec", benchId, kappaThreshold: "0.6", minReviewed: "1e9" });
    expect(huge).toMatchObject({ ok: false, error: { code: "validation", fieldErrors: { minReviewed: "Enter a whole number from 1 to 100,000." } } });
    expect(await getCalibrationPolicy(getDb(), promptId)).toEqual(before);
  });
});
