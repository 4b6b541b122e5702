/**
 * The steps both kill tests share (server/bench/sqlite-kill.test.ts, pg-kill.test.ts; issue 20):
 * hold every answer at the model server until each slot of the bench has its request there, then
 * find a worker process that holds running trials (the victim to kill); and, once the bench is
 * finished, check that every trial ended with exactly one result and was requested once or twice.
 */
import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import type { Db } from "@/db/client";
import { getBenchProgress } from "@/db/queries/benches";
import { trials } from "@/db/schema";
import { loadCaseText, loadTrialRows, waitUntil, type LoadModelServer, type LoadTrialRow } from "./load-bench";
import type { WorkerFleet } from "./worker-fleet";

/**
 * Waits for `afterRequests` requests at the model server, holds its answers until all `concurrency`
 * slots of bench `benchId` have their request there, and picks the first worker of `fleet` that holds
 * running trials (a worker id is host:pid:random). The answers stay held: the caller releases them.
 * @returns the victim's slot in the fleet and the case keys of the trials it holds
 * @throws (fails the test) when no worker holds a running trial; `waitUntil`'s error after `timeoutMs`
 */
export async function holdAndPickVictim(
  db: Db,
  o: { benchId: number; fleet: WorkerFleet; model: LoadModelServer; afterRequests: number; concurrency: number; timeoutMs: number },
): Promise<{ victim: number; victimKeys: string[] }> {
  const detail = async () => JSON.stringify(await getBenchProgress(db, o.benchId));
  await waitUntil(`${o.afterRequests} requests at the model server`, () => o.model.server.requests.count >= o.afterRequests, {
    timeoutMs: o.timeoutMs,
    detail,
  });
  o.model.server.hold();
  await waitUntil("every slot of the bench to have its request held at the model server", () => o.model.server.requests.held >= o.concurrency, {
    timeoutMs: o.timeoutMs,
    detail,
  });
  const running = await db
    .select({ workerId: trials.workerId, id: trials.id })
    .from(trials)
    .where(and(eq(trials.benchId, o.benchId), eq(trials.status, "running")));
  const heldBy = (pid: number) => running.filter((r) => r.workerId?.split(":")[1] === String(pid)).map((r) => r.id);
  const victim = o.fleet.pids.findIndex((pid) => heldBy(pid).length > 0);
  expect(victim, `no worker process holds the running trials (${running.map((r) => r.workerId).join(", ")})`).not.toBe(-1);
  const ids = new Set(heldBy(o.fleet.pids[victim]));
  const victimKeys = (await loadTrialRows(db, o.benchId)).filter((t) => ids.has(t.id)).map((t) => t.caseKey);
  return { victim, victimKeys };
}

/**
 * Checks a finished load bench of `total` trials: each ended `done` with its own case's answer and
 * check, one row per case, the bench's progress counts them all done; the model server saw each
 * trial's request once or twice and nothing else, and each of `victimKeys` (a killed worker's
 * trials) twice.
 * @returns the bench's trial rows (for the suite's own checks)
 */
export async function expectOneResultPerTrial(
  db: Db,
  o: { benchId: number; model: LoadModelServer; total: number; victimKeys: string[] },
): Promise<LoadTrialRow[]> {
  const rows = await loadTrialRows(db, o.benchId);
  // Any trial that did not end `done` with its answer, with its model requests (to say why).
  const wrong = rows.filter((r) => r.status !== "done" || r.output !== `Answer to ${loadCaseText(r.caseKey)}` || r.passedChecks !== 1);
  expect(wrong.map((r) => ({ ...r, requests: o.model.requestsByCase.get(r.caseKey) ?? 0 }))).toEqual([]);
  const end = (await getBenchProgress(db, o.benchId))!;
  expect([end.status, end.total, end.done, end.error, end.skipped, end.queued, end.running]).toEqual(["finished", o.total, o.total, 0, 0, 0, 0]);
  // One stored result per trial: one row per case.
  expect(rows).toHaveLength(o.total);
  expect(new Set(rows.map((r) => r.caseKey)).size).toBe(o.total);
  // The model server saw every trial's request, none more than twice, and nothing else.
  const counts = rows.map((r) => o.model.requestsByCase.get(r.caseKey) ?? 0);
  expect(counts.filter((n) => n < 1 || n > 2)).toEqual([]);
  expect(o.model.otherRequests).toBe(0);
  // The victim's held trials ran again elsewhere: requested twice, stored once.
  expect(o.victimKeys.length).toBeGreaterThanOrEqual(1);
  for (const key of o.victimKeys) expect(o.model.requestsByCase.get(key)).toBe(2);
  return rows;
}
