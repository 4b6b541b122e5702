/**
 * A separate claimer process for the SQLite queue's cross-process tests
 * (db/queries/trial-job-queue.test.ts). Started with IPC; first message `{ file, providerKey }`, then
 * requests `{ id, op, … }` answered by `{ id, result }` or `{ id, error }`:
 * - `claim` `{ workerId, max, now }` → the claims;
 * - `complete` `{ claims }` → how many were stored;
 * - `drain` `{ workerId, max, now }` → claims and completes until nothing is left; returns how many
 *   it completed and the most claims of the provider it ever saw right after a claim;
 * - `stop`.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { TrialClaim } from "@/lib/bench/trial-jobs";
import { openDatabase } from "../client";
import { SqliteTrialJobQueue } from "../queries/trial-job-queue";
import { trials } from "../schema";
import { trialJobs } from "../schema-sqlite-queue";

type Request = { id: number; op: "claim" | "complete" | "drain" | "stop"; workerId?: string; max?: number; now?: number; claims?: TrialClaim[] };

const done = (claim: TrialClaim) => ({
  status: "done" as const,
  startedAt: 1,
  finishedAt: 2,
  latencyMs: 1,
  inputTokens: null,
  outputTokens: null,
  costUsd: null,
  finishReason: "stop",
  output: `by ${process.pid} for ${claim.trialId}`,
  record: null,
  checks: null,
  error: null,
});

process.once("message", (init: { file: string; providerKey: string }) => {
  const db = openDatabase(init.file);
  const queue = new SqliteTrialJobQueue(db);
  const count = async (where: ReturnType<typeof and>) =>
    Number(
      (
        await db
          .select({ n: sql<number>`count(*)` })
          .from(trialJobs)
          .where(where)
      )[0].n,
    );
  const handle = async (req: Request): Promise<unknown> => {
    if (req.op === "claim") return queue.claim(req.workerId!, req.max!, req.now!);
    if (req.op === "complete") return (await queue.completeMany(req.claims!.map((c) => ({ claim: c, result: done(c) })))).length;
    if (req.op === "drain") {
      let completed = 0;
      let peak = 0;
      for (;;) {
        const claims = await queue.claim(req.workerId!, req.max!, req.now!);
        peak = Math.max(peak, await count(and(eq(trialJobs.state, "claimed"), eq(trialJobs.providerKey, init.providerKey))));
        if (claims.length === 0) {
          const left = await db
            .select({ n: sql<number>`count(*)` })
            .from(trials)
            .where(inArray(trials.status, ["queued", "running"]));
          if (Number(left[0].n) === 0) break;
          // The other process holds the rest: let it finish them (a pause, not a correctness wait).
          await new Promise((resolve) => setTimeout(resolve, 5));
          continue;
        }
        completed += (await queue.completeMany(claims.map((c) => ({ claim: c, result: done(c) })))).length;
      }
      return { completed, peak };
    }
    db.$client.close();
    return null;
  };
  process.on("message", (req: Request) => {
    handle(req).then(
      (result) => {
        process.send!({ id: req.id, result });
        if (req.op === "stop") process.disconnect();
      },
      (e: Error) => process.send!({ id: req.id, error: e.stack ?? e.message }),
    );
  });
  process.send!({ ready: true });
});
