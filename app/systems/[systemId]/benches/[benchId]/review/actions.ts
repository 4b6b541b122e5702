"use server";

/** Server actions of the review mode (issue 18): a human verdict, the prompt's calibration policy, a corrected expected result. */
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/db/client";
import { setCalibrationPolicy } from "@/db/queries/human-verdicts";
import { LIMITS } from "@/lib/library/limits";
import { currentActor } from "@/server/auth/actor";
import { guardedAction } from "@/server/auth/guard";
import { runAction, type ActionResult } from "@/lib/shell/result";
import { HUMAN_VERDICTS } from "@/lib/review/overlay";
import { recordHumanVerdict, requireBench } from "@/server/review/verdicts";
import { correctExpectedFromTrial } from "@/server/review/correct-expected";

const benchRef = { systemId: z.string().min(1).max(200), benchId: z.coerce.number().int().positive() };

const verdictSchema = z.object({
  ...benchRef,
  trialId: z.coerce.number().int().positive(),
  checkKey: z.string().regex(/^c\d{1,12}$/, { error: "Not a criterion's check." }),
  verdict: z.enum(HUMAN_VERDICTS as [string, ...string[]], { error: "The verdict must be pass, fail or cant_tell." }),
  note: z.string().max(2000, { error: "A note is at most 2,000 characters." }).default(""),
});

const refresh = (systemId: string, benchId: number) => revalidatePath(`/systems/${systemId}/benches/${benchId}`, "layout");

/** A reviewer's verdict on one criterion of one trial; the trial and the bench rescore. */
export const recordVerdictAction = guardedAction(
  "editor",
  async (input: unknown): Promise<ActionResult<{ passed: number; failed: number; unscored: number; error: number }>> => {
    return runAction(verdictSchema, input, async (v) => {
      const db = getDb();
      await requireBench(db, v.systemId, v.benchId);
      const counts = await recordHumanVerdict(
        db,
        v.benchId,
        {
          trialId: v.trialId,
          checkKey: v.checkKey,
          verdict: v.verdict as "pass" | "fail" | "cant_tell",
          note: v.note.trim(),
        },
        { author: await currentActor() },
      );
      refresh(v.systemId, v.benchId);
      return counts;
    });
  },
);

// A blank field is missing, not 0: coerced, "" would save κ ≥ 0 and let a chance-level judge gate.
const blankToMissing = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const KAPPA_MESSAGE = "Enter a κ threshold from −1 to 1.";
const MIN_REVIEWED_MESSAGE = "Enter a whole number from 1 to 100,000.";

const policySchema = z.object({
  ...benchRef,
  kappaThreshold: z.preprocess(
    blankToMissing,
    z.coerce.number({ error: KAPPA_MESSAGE }).min(-1, { error: "κ is at least −1." }).max(1, { error: "κ is at most 1." }),
  ),
  minReviewed: z.preprocess(
    blankToMissing,
    z.coerce
      .number({ error: MIN_REVIEWED_MESSAGE })
      .int({ error: "Enter a whole number." })
      .min(1, { error: MIN_REVIEWED_MESSAGE })
      .max(100_000, { error: MIN_REVIEWED_MESSAGE }),
  ),
});

/** When the bench's prompt counts a judged criterion as calibrated (applies to benches launched afterwards). */
export const setCalibrationPolicyAction = guardedAction("editor", async (input: unknown): Promise<ActionResult<null>> => {
  return runAction(policySchema, input, async (v) => {
    const db = getDb();
    const bench = await requireBench(db, v.systemId, v.benchId);
    await setCalibrationPolicy(db, bench.promptId, { kappaThreshold: v.kappaThreshold, minReviewed: v.minReviewed }, Date.now());
    refresh(v.systemId, v.benchId);
    return null;
  });
});

const correctSchema = z.object({
  ...benchRef,
  trialId: z.coerce.number().int().positive(),
  baseRevision: z.coerce.number().int().positive(),
  expected: z
    .string()
    .trim()
    .min(1, { error: "Expected result is required." })
    .max(LIMITS.expected, { error: `Expected result is at most ${LIMITS.expected.toLocaleString("en")} characters.` }),
});

/** A new revision of the trial's case with the corrected expected result, for future benches. */
export const correctExpectedAction = guardedAction("editor", async (input: unknown): Promise<ActionResult<{ caseKey: string; revisionNumber: number }>> => {
  return runAction(correctSchema, input, async (v) => {
    const db = getDb();
    await requireBench(db, v.systemId, v.benchId);
    const r = await correctExpectedFromTrial(db, v.benchId, v.trialId, v.expected, v.baseRevision, await currentActor());
    refresh(v.systemId, v.benchId);
    revalidatePath(`/systems/${v.systemId}/library`);
    return r;
  });
});
