"use server";

/**
 * Server actions of reruns inside a finished bench (issue #16 §3): confirm its suspected
 * regressions, or rerun its errored trials. Each validates its input, refuses a bench of another
 * system, one still running, or one with nothing to rerun (a clear error), adds the trials and
 * reopens the bench, then wakes the worker. Who started it is recorded (activity `bench.rerun`).
 */
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/db/client";
import { getBench } from "@/db/queries/benches";
import { LibraryError } from "@/lib/library/errors";
import { currentActor } from "@/server/auth/actor";
import { guardedAction } from "@/server/auth/guard";
import { runAction, type ActionResult } from "@/lib/shell/result";
import { startRerun } from "@/server/bench/reruns";
import { wakeInServerWorker } from "@/server/in-server-worker";

const rerunInput = z.object({
  systemId: z.string().min(1).max(200),
  benchId: z.coerce.number().int().positive(),
  kind: z.enum(["confirm", "errors"]),
});

/** Starts a rerun; returns how many trials it added and the model calls planned for them. */
export const startRerunAction = guardedAction("editor", async (input: unknown): Promise<ActionResult<{ trials: number; modelCalls: number }>> => {
  return runAction(rerunInput, input, async ({ systemId, benchId, kind }) => {
    const db = getDb();
    const bench = await getBench(db, benchId);
    if (!bench || bench.systemId !== systemId) throw new LibraryError("not_found", `Bench #${benchId} does not exist in system "${systemId}".`);
    const plan = await startRerun(db, benchId, kind, await currentActor());
    wakeInServerWorker();
    revalidatePath(`/systems/${systemId}/benches/${benchId}`);
    revalidatePath(`/systems/${systemId}/benches`);
    return { trials: plan.trials.length, modelCalls: plan.modelCalls };
  });
});
