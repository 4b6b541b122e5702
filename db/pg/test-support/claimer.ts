/**
 * A separate claimer process for the cross-process queue tests (db/pg/trial-job-queue.test.ts).
 * Started with IPC; first message `{ url, providerKey }`, then requests `{ id, op, … }` answered by
 * `{ id, result }` or `{ id, error }`:
 * - `claim` `{ workerId, max, now }` → the claims;
 * - `complete` `{ claims }` → how many were stored;
 * - `drain` `{ workerId, max, now }` → claims and completes until nothing is left; returns how many
 *   it completed and the most claims of the provider it ever saw in the table right after a claim;
 * - `stop`.
 */
import pg from "pg";
import { PgTrialJobQueue } from "../trial-job-queue";
import type { TrialClaim } from "@/lib/bench/trial-jobs";

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

process.once("message", async (init: { url: string; providerKey: string }) => {
  const queue = new PgTrialJobQueue({ url: init.url });
  const observer = new pg.Client({ connectionString: init.url });
  await queue.start();
  await observer.connect();
  const handle = async (req: Request): Promise<unknown> => {
    if (req.op === "claim") return queue.claim(req.workerId!, req.max!, req.now!);
    if (req.op === "complete") {
      let n = 0;
      for (const c of req.claims!) if (await queue.complete(c, done(c))) n++;
      return n;
    }
    if (req.op === "drain") {
      let completed = 0;
      let peak = 0;
      for (;;) {
        const claims = await queue.claim(req.workerId!, req.max!, req.now!);
        const seen = await observer.query<{ n: number }>("SELECT count(*)::int AS n FROM trial_claims WHERE provider_key = $1", [init.providerKey]);
        peak = Math.max(peak, seen.rows[0].n);
        if (claims.length === 0) {
          const left = await observer.query<{ n: number }>("SELECT count(*)::int AS n FROM trials WHERE status IN ('queued', 'running')");
          if (left.rows[0].n === 0) break;
          // The other process holds the rest: let it finish them (a pause, not a correctness wait).
          await new Promise((resolve) => setTimeout(resolve, 5));
          continue;
        }
        for (const c of claims) if (await queue.complete(c, done(c))) completed++;
      }
      return { completed, peak };
    }
    await observer.end();
    await queue.stop();
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
