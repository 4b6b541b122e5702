/**
 * A separate claimer process for the trial job queues' cross-process tests (both implementations of
 * lib/bench/trial-jobs.ts: db/queries/trial-job-queue.test.ts on a SQLite file, db/pg/trial-job-queue.test.ts
 * on PostgreSQL). Started with IPC; first message {@link ClaimerInit}, then requests `{ id, op, … }`
 * answered by `{ id, result }` or `{ id, error }`:
 * - `claim` `{ workerId, max, now }` → the claims;
 * - `complete` `{ claims }` → how many were stored;
 * - `drain` `{ workerId, max, now }` → claims and completes until nothing is left; returns how many
 *   it completed and the most current claims of the provider it ever saw right after a claim;
 * - `stop`.
 */
import { and, count, eq, inArray, sql } from "drizzle-orm";
import type { TrialClaim, TrialJobQueue } from "@/lib/bench/trial-jobs";
import { openDatabase, type Db } from "../client";
import { rawRows } from "../dialect";
import { closeStore, openPgStore } from "../pg/store";
import { PgTrialJobQueue } from "../pg/trial-job-queue";
import { SqliteTrialJobQueue } from "../queries/trial-job-queue";
import { trials } from "../schema";
import { trialJobs } from "../schema-sqlite-queue";

/** Which queue the process claims from. */
export type ClaimerInit = ({ kind: "sqlite"; file: string } | { kind: "postgres"; url: string }) & { providerKey: string };

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

async function open(init: ClaimerInit): Promise<{ queue: TrialJobQueue<unknown>; db: Db; claimed: () => Promise<number>; close: () => Promise<void> }> {
  if (init.kind === "sqlite") {
    const db = openDatabase(init.file);
    const claimed = async () =>
      (
        await db
          .select({ n: count() })
          .from(trialJobs)
          .where(and(eq(trialJobs.state, "claimed"), eq(trialJobs.providerKey, init.providerKey)))
      )[0].n;
    return { queue: new SqliteTrialJobQueue(db) as TrialJobQueue<unknown>, db, claimed, close: async () => void db.$client.close() };
  }
  const queue = new PgTrialJobQueue({ url: init.url });
  await queue.start();
  const db = openPgStore(init.url, 1);
  // The pg queue's claims live in its own table (db/schema-pg-queue.ts, not among db/schema.ts's tables).
  const claimed = async () => (await rawRows<{ n: number }>(db, sql`SELECT count(*) AS n FROM trial_claims WHERE provider_key = ${init.providerKey}`))[0].n;
  return { queue: queue as TrialJobQueue<unknown>, db, claimed, close: async () => (await closeStore(db), await queue.stop()) };
}

process.once("message", async (init: ClaimerInit) => {
  const { queue, db, claimed, close } = await open(init);
  const complete = async (claims: TrialClaim[]) => (await queue.completeMany(claims.map((c) => ({ claim: c, result: done(c) })))).length;
  const handle = async (req: Request): Promise<unknown> => {
    if (req.op === "claim") return queue.claim(req.workerId!, req.max!, req.now!);
    if (req.op === "complete") return complete(req.claims!);
    if (req.op === "drain") {
      let completed = 0;
      let peak = 0;
      for (;;) {
        const claims = await queue.claim(req.workerId!, req.max!, req.now!);
        peak = Math.max(peak, await claimed());
        if (claims.length === 0) {
          const [left] = await db
            .select({ n: count() })
            .from(trials)
            .where(inArray(trials.status, ["queued", "running"]));
          if (left.n === 0) break;
          // The other process holds the rest: let it finish them (a pause, not a correctness wait).
          await new Promise((resolve) => setTimeout(resolve, 5));
          continue;
        }
        completed += await complete(claims);
      }
      return { completed, peak };
    }
    await close();
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
