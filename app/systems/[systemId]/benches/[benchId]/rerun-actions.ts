"use server";

/**
 * Server actions of reruns inside a finished bench (issue #16 §3): plan, then confirm its
 * suspected regressions or rerun its errored trials. Each validates its input and refuses a bench
 * of another system, one still running, or one with nothing to rerun (a clear error); starting
 * adds the trials and reopens the bench, then wakes the worker. Who started it is recorded
 * (activity `bench.rerun`).
 */
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/db/client";
import { getBench } from "@/db/queries/benches";
import { LibraryError } from "@/lib/library/errors";
import { currentActor } from "@/server/auth/actor";
import { guardedAction } from "@/server/auth/guard";
import { runAction, type ActionResult } from "@/lib/shell/result";
import { planRerunSummary, startRerun, type RerunPlanSummary } from "@/server/bench/reruns";
import { wakeInServerWorker } from "@/server/in-server-worker";

const rerunInput = z.object({
  systemId: z.string().min(1).max(200),
  benchId: z.coerce.number().int().positive(),
  kind: z.enum(["confirm", "errors"]),
});

/** Starting one may raise the bench's spend cap for it (USD), when the cap would stop it (issue #16). */
const startInput = rerunInput.extend({
  spendCapUsd: z.coerce.number({ message: "The spend cap (USD) must be a number" }).positive("The spend cap (USD) must be above 0").max(1_000_000).optional(),
});

/** The bench `benchId` of system `systemId`, or LibraryError `not_found`. */
async function benchOf(systemId: string, benchId: number) {
  const bench = await getBench(getDb(), benchId);
  if (!bench || bench.systemId !== systemId) throw new LibraryError("not_found", `Bench #${benchId} does not exist in system "${systemId}".`);
  return bench;
}

/** A rerun's plan (trials, cases, calls, tokens, cost) for its confirm dialog, computed when the dialog opens. */
// Editor-level like the rerun it plans: only those who may start it are offered its dialog.
export const planRerunAction = guardedAction("editor", async (input: unknown): Promise<ActionResult<RerunPlanSummary>> => {
  return runAction(rerunInput, input, async ({ systemId, benchId, kind }) => {
    await benchOf(systemId, benchId);
    return planRerunSummary(getDb(), benchId, kind);
  });
});

/** Starts a rerun (with the spend cap raised to `spendCapUsd` when given); returns how many trials it added and the model calls planned for them. */
export const startRerunAction = guardedAction("editor", async (input: unknown): Promise<ActionResult<{ trials: number; modelCalls: number }>> => {
  return runAction(startInput, input, async ({ systemId, benchId, kind, spendCapUsd }) => {
    await benchOf(systemId, benchId);
    const plan = await startRerun(getDb(), benchId, kind, await currentActor(), process.env, spendCapUsd === undefined ? {} : { spendCapUsd });
    wakeInServerWorker();
    revalidatePath(`/systems/${systemId}/benches/${benchId}`);
    revalidatePath(`/systems/${systemId}/benches`);
    return { trials: plan.trials.length, modelCalls: plan.modelCalls };
  });
});
