"use server";

/** Server actions of benches: Plan (nothing stored), Launch (one bench, returns its id), Cancel. */
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/db/client";
import { requestCancel } from "@/db/queries/benches";
import { benchRequestSchema } from "@/lib/bench/request";
import type { BenchPlan } from "@/lib/bench/types";
import { runAction, type ActionResult } from "@/lib/shell/result";
import { launchFromRequest, prepareBench } from "@/server/bench/prepare";
import { wakeInServerWorker } from "@/server/in-server-worker";
import { currentActor } from "@/server/auth/actor";
import { guardedAction } from "@/server/auth/guard";

/** Plan: the manifest, call counts and estimates, before anything runs. */
export const planBenchAction = guardedAction("editor", async (input: unknown): Promise<ActionResult<BenchPlan>> => {
  return runAction(benchRequestSchema, input, async (r) => (await prepareBench(getDb(), r, { env: process.env })).plan);
});

/**
 * Launch: stores the bench and its queued trials in one transaction; returns the bench id. With
 * generation ticked, the generator runs first (its key from the server's environment).
 */
export const launchBenchAction = guardedAction("editor", async (input: unknown): Promise<ActionResult<{ id: number }>> => {
  return runAction(benchRequestSchema, input, async (r) => {
    const { id } = await launchFromRequest(getDb(), r, { env: process.env, author: await currentActor() });
    wakeInServerWorker();
    revalidatePath(`/systems/${r.systemId}/benches`);
    if (r.generate) revalidatePath(`/systems/${r.systemId}/library`);
    return { id };
  });
});

/** Cancel: running trials are aborted, unrun ones become skipped, finished ones stay. */
export const cancelBenchAction = guardedAction("editor", async (input: unknown): Promise<ActionResult<null>> => {
  return runAction(z.object({ benchId: z.coerce.number().int().positive(), systemId: z.string() }), input, async ({ benchId, systemId }) => {
    await requestCancel(getDb(), benchId, await currentActor());
    wakeInServerWorker();
    revalidatePath(`/systems/${systemId}/benches/${benchId}`);
    return null;
  });
});
