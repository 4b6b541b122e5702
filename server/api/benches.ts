/**
 * The HTTP API's bench workflows (`/api/v1/benches`, issue 19): launch from `bench run`'s options,
 * progress, cancel and the results report. The route handlers call these after the role check.
 */
import { randomUUID } from "node:crypto";
import type { Db } from "@/db/client";
import { getBench, requestCancel } from "@/db/queries/benches";
import type { BenchRunBody } from "@/lib/api/schemas";
import type { Author } from "@/lib/audit/author";
import { planSummary, type GeneratedSummary, type PlanSummary } from "@/lib/bench/launch-lines";
import { LibraryError } from "@/lib/library/errors";
import { launchFromRequest } from "@/server/bench/prepare";
import { resolveBenchRun } from "@/server/bench/run-request";
import { benchRunReport, type BenchRunReport } from "@/server/bench/run-report";
import { wakeInServerWorker } from "@/server/in-server-worker";
import { progressWithWorkerWait, type ProgressWithWorkerWait } from "@/server/bench/progress-poll";

/** The answer to a launch. */
export interface LaunchedBench {
  benchId: number;
  /** False when `launchKey` had already launched this bench (nothing new was stored). */
  created: boolean;
  plan: PlanSummary;
  generated: GeneratedSummary | null;
  includeRetained: boolean;
}

/**
 * Launches a bench from `bench run`'s options for `author`; the server's worker runs it.
 * @throws LibraryError `validation` naming the option; GenerationFailed when the generator's answer was unusable
 */
export async function launchBenchRun(db: Db, body: BenchRunBody, author: Author, env: Record<string, string | undefined>): Promise<LaunchedBench> {
  const request = await resolveBenchRun(db, body, "this server", body.launchKey ?? `api-${randomUUID()}`);
  const { id, created, plan } = await launchFromRequest(db, request, { env, author });
  wakeInServerWorker();
  const generated = request.generate ? ((await getBench(db, id))?.settings.generated ?? null) : null;
  return { benchId: id, created, plan: planSummary(plan), generated, includeRetained: request.includeRetained !== false };
}

/**
 * Live progress of bench `id`, with `noWorkerSince`: since when (ms) it has waited for a worker that
 * never came (null unless 15 s passed with no trial claimed and no live worker elsewhere), as the
 * bench page says it.
 * @param o.now the current time (ms; default now); o.leaseMs the workers' lease (default the configured one)
 * @throws LibraryError `not_found`
 */
export async function benchProgress(db: Db, id: number, o: { now?: number; leaseMs?: number } = {}): Promise<ProgressWithWorkerWait> {
  const p = await progressWithWorkerWait(db, id, o);
  if (!p) throw new LibraryError("not_found", `Bench #${id} does not exist.`);
  return p;
}

/**
 * Asks bench `id` to stop (running trials abort, unrun ones are skipped).
 * @throws LibraryError `not_found`, `not_allowed` (already ended)
 */
export async function cancelBench(db: Db, id: number, author: Author): Promise<{ cancelRequested: true }> {
  await requestCancel(db, id, author);
  wakeInServerWorker();
  return { cancelRequested: true };
}

/**
 * The results of an ended bench: what `bench run` prints and writes.
 * @throws LibraryError `not_found`, `conflict` (still running)
 */
export async function benchResults(db: Db, id: number): Promise<BenchRunReport> {
  return benchRunReport(db, id);
}
