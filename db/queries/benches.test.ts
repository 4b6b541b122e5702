/**
 * Benches (launch, reads, cancellation) on both stores (issue 20): one launch transaction storing
 * the bench, its candidates, manifest and queued trials in claim order; the history, progress and
 * error reasons read back from it.
 */
import { asc, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import type { Db } from "../client";
import { activity, benchCandidates, benchCases, benches, trials } from "../schema";
import { describeStores } from "../test-support/stores";
import { LibraryError } from "@/lib/library/errors";
import {
  benchIdByLaunchKey,
  getBench,
  getBenchProgress,
  getManifest,
  launchBench,
  listBenches,
  previousFinishedBench,
  requestCancel,
  trialErrorReasons,
} from "./benches";
import { recordedLaunch, seedCases } from "./test-support/bench-launch";

const ana = { userId: "u-ana", email: "ana@example.test" };
const bo = { userId: "u-bo", email: "bo@example.test" };

/** Trials of a bench in id (claim) order, as [case position, repeat, candidate label, status]. */
async function trialOrder(db: Db, benchId: number) {
  const rows = await db
    .select({ position: benchCases.position, repeat: trials.repeat, label: benchCandidates.label, status: trials.status, error: trials.error })
    .from(trials)
    .innerJoin(benchCases, eq(benchCases.id, trials.benchCaseId))
    .innerJoin(benchCandidates, eq(benchCandidates.id, trials.candidateId))
    .where(eq(trials.benchId, benchId))
    .orderBy(asc(trials.id));
  return rows;
}

async function setStatus(db: Db, benchId: number, status: "done" | "error" | "running", n: number, error: string | null = null) {
  const queued = await db
    .select({ id: trials.id })
    .from(trials)
    .where(eq(trials.benchId, benchId))
    .orderBy(asc(trials.id))
    .then((rows) => rows.slice(0, n));
  for (const t of queued) await db.update(trials).set({ status, error }).where(eq(trials.id, t.id));
}

describeStores("benches", (store) => {
  it("launches in one go: the bench, its candidates, the manifest and its trials in claim order, skipped where a recording is missing", async () => {
    const db = store.db();
    const { promptId, cases } = await seedCases(db, "acme", 4);
    const input = recordedLaunch("acme", promptId, cases, {
      launchKey: "k1",
      candidates: ["a", "b"],
      repeats: 2,
      excludeEvery: 3,
      missing: { candidate: "b", caseIds: [cases[1].caseId] },
    });
    const before = Date.now();
    const r = await launchBench(db, { ...input, author: ana });
    expect(r.created).toBe(true);
    expect(await benchIdByLaunchKey(db, "k1")).toBe(r.id);

    const bench = await getBench(db, r.id);
    expect(bench).toMatchObject({
      id: r.id,
      systemId: "acme",
      promptId,
      promptName: "answerer",
      title: "bench k1",
      status: "queued",
      settings: input.settings,
      rubric: [],
      baseline: { kind: "none" },
      judge: null,
      trialCount: 12,
      startedAt: null,
      cancelRequestedAt: null,
      launchedByEmail: "ana@example.test",
      summary: null,
    });
    expect(bench!.candidates.map((c) => [c.position, c.kind, c.label, c.recordedName, c.modelConfig])).toEqual([
      [0, "recorded", "a", "a", null],
      [1, "recorded", "b", "b", null],
    ]);

    const manifest = await getManifest(db, r.id);
    expect(manifest.map((m) => [m.position, m.caseId, m.caseRevisionId, m.caseKey, m.included, m.reason, m.note])).toEqual([
      [0, cases[0].caseId, cases[0].caseRevisionId, "c-00001", true, null, "first"],
      [1, cases[1].caseId, cases[1].caseRevisionId, "c-00002", true, null, null],
      [2, cases[2].caseId, cases[2].caseRevisionId, "c-00003", false, "paused", null],
      [3, cases[3].caseId, cases[3].caseRevisionId, "c-00004", true, null, null],
    ]);

    // case → repeat → candidate, so the candidates of a case run side by side.
    const order = await trialOrder(db, r.id);
    const skipped = "no recorded output for candidate “b” in this case";
    expect(order.map((t) => [t.position, t.repeat, t.label, t.status, t.error])).toEqual([
      [0, 1, "a", "queued", null],
      [0, 1, "b", "queued", null],
      [0, 2, "a", "queued", null],
      [0, 2, "b", "queued", null],
      [1, 1, "a", "queued", null],
      [1, 1, "b", "skipped", skipped],
      [1, 2, "a", "queued", null],
      [1, 2, "b", "skipped", skipped],
      [3, 1, "a", "queued", null],
      [3, 1, "b", "queued", null],
      [3, 2, "a", "queued", null],
      [3, 2, "b", "queued", null],
    ]);
    const skippedAt = await db.select({ finishedAt: trials.finishedAt }).from(trials).where(eq(trials.status, "skipped"));
    expect(skippedAt.every((t) => t.finishedAt != null && t.finishedAt >= before)).toBe(true);

    const acts = await db.select().from(activity);
    expect(acts.map((a) => [a.action, a.subjectType, a.subjectId, a.actorEmail, a.detail])).toEqual([
      ["bench.launch", "bench", String(r.id), "ana@example.test", "bench k1"],
    ]);
  });

  it("stores a large launch whole and in claim order, each trial on its own case (more trials than one statement inserts)", async () => {
    const db = store.db();
    const { promptId, cases } = await seedCases(db, "big", 2_600);
    const input = recordedLaunch("big", promptId, cases, { launchKey: "big", candidates: ["a", "b"], excludeEvery: 100 });
    const { id } = await launchBench(db, input);
    const manifest = await getManifest(db, id);
    expect(manifest.map((m) => m.caseKey)).toEqual(cases.map((c) => c.caseKey));
    expect(manifest.filter((m) => !m.included).length).toBe(26);
    const order = await trialOrder(db, id);
    expect(order.length).toBe(input.plan.trialCount);
    const expected = input.plan.manifest
      .filter((m) => m.included)
      .flatMap((m) => [
        [m.position, "a"],
        [m.position, "b"],
      ]);
    expect(order.map((t) => [t.position, t.label])).toEqual(expected);
    expect((await listBenches(db, "big"))[0]).toMatchObject({ included: 2_574, excluded: 26, trialCount: 5_148 });
  });

  it("a second launch with the same key is the first bench and writes nothing; a plan without cases is refused and writes nothing", async () => {
    const db = store.db();
    const { promptId, cases } = await seedCases(db, "acme", 3);
    const input = recordedLaunch("acme", promptId, cases, { launchKey: "twice", candidates: ["a"] });
    const first = await launchBench(db, input);
    expect(await launchBench(db, input)).toEqual({ id: first.id, created: false });
    expect((await db.select().from(trials)).length).toBe(3);

    const none = recordedLaunch("acme", promptId, cases, { launchKey: "none", candidates: ["a"], excludeEvery: 1 });
    const refused = await launchBench(db, none).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LibraryError);
    expect([(refused as LibraryError).code, (refused as LibraryError).message]).toEqual(["validation", "Nothing to run: the plan includes no case. "]);
    expect((await db.select({ id: benches.id }).from(benches)).map((b) => b.id)).toEqual([first.id]);
  });

  it("counts a bench's trials per status and names the most common error reasons", async () => {
    const db = store.db();
    const { promptId, cases } = await seedCases(db, "acme", 5);
    const { id } = await launchBench(db, recordedLaunch("acme", promptId, cases, { launchKey: "p", candidates: ["a", "b"] }));
    expect(await getBenchProgress(db, id)).toMatchObject({
      id,
      status: "queued",
      total: 10,
      queued: 10,
      running: 0,
      done: 0,
      error: 0,
      skipped: 0,
      finishedBefore: 0,
    });
    await setStatus(db, id, "done", 3);
    const rest = (await db.select({ id: trials.id }).from(trials).where(eq(trials.benchId, id)).orderBy(asc(trials.id))).slice(3);
    const errors = ["timeout", "rate limited", "timeout", "401 bad key", "rate limited", "timeout"];
    for (const [i, message] of errors.entries()) await db.update(trials).set({ status: "error", error: message }).where(eq(trials.id, rest[i].id));
    await db.update(trials).set({ status: "running" }).where(eq(trials.id, rest[6].id));
    expect(await getBenchProgress(db, id)).toMatchObject({ total: 10, queued: 0, running: 1, done: 3, error: 6, skipped: 0, cancelRequested: false });
    expect(await trialErrorReasons(db, id)).toEqual([
      { message: "timeout", trials: 3 },
      { message: "rate limited", trials: 2 },
      { message: "401 bad key", trials: 1 },
    ]);
    expect(await trialErrorReasons(db, id, 2)).toEqual([
      { message: "timeout", trials: 3 },
      { message: "rate limited", trials: 2 },
    ]);
    expect(await getBenchProgress(db, id + 1)).toBeNull();
  });

  it("cancels once: the first request's time and person stay; an ended or unknown bench is refused", async () => {
    const db = store.db();
    const { promptId, cases } = await seedCases(db, "acme", 2);
    const { id } = await launchBench(db, recordedLaunch("acme", promptId, cases, { launchKey: "c", candidates: ["a"] }));
    await requestCancel(db, id, bo);
    const [b1] = await db.select().from(benches).where(eq(benches.id, id));
    expect(b1.cancelRequestedAt).not.toBeNull();
    expect([b1.cancelledById, b1.cancelledByEmail]).toEqual(["u-bo", "bo@example.test"]);
    await requestCancel(db, id, ana);
    const [b2] = await db.select().from(benches).where(eq(benches.id, id));
    expect([b2.cancelRequestedAt, b2.cancelledByEmail]).toEqual([b1.cancelRequestedAt, "bo@example.test"]);
    expect((await getBenchProgress(db, id))?.cancelRequested).toBe(true);
    expect((await db.select().from(activity)).map((a) => [a.action, a.actorEmail])).toEqual([["bench.cancel", "bo@example.test"]]);

    await db.update(benches).set({ status: "finished" }).where(eq(benches.id, id));
    await expect(requestCancel(db, id, ana)).rejects.toThrow(`Bench #${id} has already finished; there is nothing to cancel.`);
    await expect(requestCancel(db, id + 1, ana)).rejects.toThrow(`Bench #${id + 1} does not exist.`);
  });

  it("lists a system's benches newest first with included and excluded cases and each candidate's pass rate; finds the previous finished bench", async () => {
    const db = store.db();
    const { promptId, cases } = await seedCases(db, "acme", 5);
    const older = await launchBench(db, recordedLaunch("acme", promptId, cases, { launchKey: "l1", candidates: ["a", "b"], excludeEvery: 2 }));
    const newer = await launchBench(db, recordedLaunch("acme", promptId, cases, { launchKey: "l2", candidates: ["a"] }));
    const olderBench = (await getBench(db, older.id))!;
    const [ca, cb] = olderBench.candidates.map((c) => c.id);
    const stats = (rate: number) => ({ passRate: { rate, scored: 4 } });
    const summary = {
      candidates: [
        { candidateId: ca, stats: stats(0.75) },
        { candidateId: cb, stats: stats(0.5) },
      ],
      baselineCandidateId: cb,
    };
    await db
      .update(benches)
      .set({ status: "finished", summary: JSON.stringify(summary), recommendation: JSON.stringify({ recommendedCandidateId: ca }) })
      .where(eq(benches.id, older.id));

    const list = await listBenches(db, "acme");
    expect(list.map((b) => [b.id, b.status, b.included, b.excluded, b.trialCount, b.rubricSize])).toEqual([
      [newer.id, "queued", 5, 0, 5, 0],
      [older.id, "finished", 3, 2, 6, 0],
    ]);
    expect(list[1].candidates).toEqual([
      { id: ca, label: "a", passRate: 0.75, scored: 4, recommended: true, isBaseline: false },
      { id: cb, label: "b", passRate: 0.5, scored: 4, recommended: false, isBaseline: true },
    ]);
    expect(list[0].candidates.map((c) => [c.label, c.passRate, c.scored])).toEqual([["a", null, 0]]);
    expect(await listBenches(db, "acme", promptId + 1)).toEqual([]);
    expect(await listBenches(db, "nobody")).toEqual([]);

    expect(await previousFinishedBench(db, promptId, newer.id)).toBe(older.id);
    expect(await previousFinishedBench(db, promptId, older.id)).toBeNull();
  });
});
