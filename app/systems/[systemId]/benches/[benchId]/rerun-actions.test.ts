/**
 * The rerun server action checks its input on the server and refuses what it must (issue #16 §3):
 * malformed input, a bench of another system, a bench still queued, a bench with nothing to
 * rerun — each a clear `{ ok: false, error }`, nothing added.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getDb, migrateDatabase } from "@/db/client";
import { seedDemoWorkspace } from "@/db/seed/demo";
import { launchFromRequest } from "@/server/bench/prepare";

vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
// Single-user mode: the action runs as the local admin (no request scope for next/headers here; the
// role wrapper itself is tested in server/auth).
vi.mock("@/server/auth/actor", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/server/auth/actor")>();
  return { ...real, currentActor: async () => real.LOCAL_ACTOR };
});
vi.mock("@/server/in-server-worker", () => ({ wakeInServerWorker: () => undefined }));

const dir = mkdtempSync(path.join(tmpdir(), "benchwork-rerun-action-"));
let saved: string | undefined;
let benchId: number;

beforeAll(async () => {
  saved = process.env.BENCHWORK_DB;
  process.env.BENCHWORK_DB = path.join(dir, "app.db");
  const db = getDb();
  migrateDatabase(db);
  await seedDemoWorkspace(db);
  const prompt = db.$client.prepare("SELECT id FROM prompts WHERE system_id = 'grade-school-math' AND name = 'solver'").get() as { id: number };
  ({ id: benchId } = await launchFromRequest(db, {
    systemId: "grade-school-math",
    promptId: prompt.id,
    candidates: [{ kind: "recorded", recordedName: "model-6b-finetuning" }],
    baseline: { kind: "candidate", index: 0 },
    selection: { kind: "all" },
    budget: 2,
    repeats: 1,
    concurrency: 1,
    timeoutSeconds: 5,
    maxSteps: 1,
    judgeModelConfigId: null,
    launchKey: "rerun-action-test",
  }));
});
afterAll(() => {
  getDb().$client.close();
  (globalThis as { benchworkDb?: unknown }).benchworkDb = undefined;
  if (saved === undefined) delete process.env.BENCHWORK_DB;
  else process.env.BENCHWORK_DB = saved;
  rmSync(dir, { recursive: true, force: true });
});

const trials = () => (getDb().$client.prepare("SELECT count(*) AS n FROM trials WHERE bench_id = ?").get(benchId) as { n: number }).n;

describe("startRerunAction", () => {
  it("refuses malformed input naming the field", async () => {
    const { startRerunAction } = await import("./rerun-actions");
    const r = await startRerunAction({ systemId: "grade-school-math", benchId: "abc", kind: "delete" });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe("validation");
    expect(Object.keys(r.error.fieldErrors ?? {}).sort()).toEqual(["benchId", "kind"]);
  });

  it("refuses a bench of another system, a queued bench and a bench with nothing to rerun; adds nothing", async () => {
    const { startRerunAction } = await import("./rerun-actions");
    expect(await startRerunAction({ systemId: "customer-support", benchId, kind: "confirm" })).toEqual({
      ok: false,
      error: { code: "not_found", message: `Bench #${benchId} does not exist in system "customer-support".`, fieldErrors: undefined },
    });
    const queued = await startRerunAction({ systemId: "grade-school-math", benchId, kind: "confirm" });
    expect(queued).toMatchObject({ ok: false, error: { code: "not_allowed", message: expect.stringContaining("is still queued") } });
    getDb().$client.prepare("UPDATE benches SET status = 'finished' WHERE id = ?").run(benchId);
    const nothing = await startRerunAction({ systemId: "grade-school-math", benchId, kind: "errors" });
    expect(nothing).toMatchObject({ ok: false, error: { code: "not_allowed", message: `Bench #${benchId} has no errored trial left to rerun.` } });
    expect(trials()).toBe(2);
  });
});

describe("planRerunAction", () => {
  it("plans what the confirm dialog shows when it opens, with the same refusals", async () => {
    const { planRerunAction } = await import("./rerun-actions");
    expect(await planRerunAction({ systemId: "customer-support", benchId, kind: "errors" })).toMatchObject({ ok: false, error: { code: "not_found" } });
    getDb().$client.prepare("UPDATE benches SET status = 'finished' WHERE id = ?").run(benchId);
    expect(await planRerunAction({ systemId: "grade-school-math", benchId, kind: "confirm" })).toMatchObject({
      ok: false,
      error: { code: "not_allowed", message: `Bench #${benchId} has no suspected regression to confirm (confirmed and cleared ones need no rerun).` },
    });
    // One trial errored (a provider outage): its rerun is planned — one trial on one case, one model call — and nothing is added.
    const first = getDb().$client.prepare("SELECT id FROM trials WHERE bench_id = ? ORDER BY id LIMIT 1").get(benchId) as { id: number };
    getDb().$client.prepare("UPDATE trials SET status = 'error', error = 'provider outage' WHERE id = ?").run(first.id);
    const r = await planRerunAction({ systemId: "grade-school-math", benchId, kind: "errors" });
    expect(r).toMatchObject({ ok: true, data: { benchId, kind: "errors", trialCount: 1, caseCount: 1, targets: 1, modelCalls: 0 } });
    expect(r.ok && r.data.caseKeys).toHaveLength(1);
    expect(trials()).toBe(2);
  });
});
