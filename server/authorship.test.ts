/**
 * Authorship and activity (issue 19): every revision, dataset version, bench launch and cancel
 * records who did it, and each change writes one activity row in its own transaction. On a
 * migrated temp SQLite file, as the server uses it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { migrateDatabase, openDatabase, type Db } from "@/db/client";
import { activity, benches, trials, caseRevisions, criterionRevisions, datasetVersions, promptRevisions } from "@/db/schema";
import { addCase, findCaseByKey, getCase, saveCaseRevision } from "@/db/queries/cases";
import { addCriterion, editCriterion } from "@/db/queries/criteria";
import { listActivity } from "@/db/queries/activity";
import { listBenches, requestCancel } from "@/db/queries/benches";
import { getTrial } from "@/db/queries/bench-matrix";
import { createPrompt, createSystem, getPrompt } from "@/db/queries/systems";
import { listPromptRevisions } from "@/db/queries/prompt-revisions";
import { emptyCaseContent } from "@/lib/library/case-content";
import { LibraryError } from "@/lib/library/errors";
import { savePromptEdit } from "./prompts";
import { importDataset } from "./datasets";
import { importLimitsFromEnv } from "./import-limits";
import { launchFromRequest } from "./bench/prepare";
import { recordedRequest, recordedSuite } from "./bench/test-support/recorded-bench";
import type { Actor } from "./auth/actor";

const ana: Actor = { userId: "u-ana", email: "ana@example.test", role: "editor", kind: "session" };
const bo: Actor = { userId: "u-bo", email: "bo@example.test", role: "admin", kind: "session" };

let dir: string;
let db: Db;
let promptId: number;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "bw-authorship-"));
  db = openDatabase(path.join(dir, "authorship.db"));
  migrateDatabase(db);
  await createSystem(db, { id: "acme", name: "Acme" });
  promptId = await createPrompt(db, { systemId: "acme", name: "agent", systemPrompt: "Help {{customer}}." });
});

afterAll(() => {
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

const content = (input: string, expected: string) => ({ ...emptyCaseContent(), input, expected });
const fields = { notes: "", history: [], variables: [], context: [] };

describe("authorship", () => {
  it("a case's first revision and an edit record their authors, and each writes one activity row", async () => {
    const { id, caseKey } = await addCase(db, {
      systemId: "acme",
      promptId,
      caseKey: "cap-01",
      source: "custom",
      content: content("hi", "hello"),
      author: ana,
    });
    await saveCaseRevision(db, id, 1, { ...fields, input: "hi there", expected: "hello" }, bo);
    const revs = db.select().from(caseRevisions).where(eq(caseRevisions.caseId, id)).orderBy(caseRevisions.number).all();
    expect(revs.map((r) => [r.number, r.authorId, r.authorEmail])).toEqual([
      [1, "u-ana", "ana@example.test"],
      [2, "u-bo", "bo@example.test"],
    ]);
    expect((await getCase(db, id))?.revisions.map((r) => r.authorEmail)).toEqual(["bo@example.test", "ana@example.test"]);
    const acts = db
      .select()
      .from(activity)
      .where(eq(activity.subjectId, String(id)))
      .orderBy(activity.id)
      .all();
    expect(acts.map((a) => [a.actorEmail, a.action, a.subjectType, a.detail])).toEqual([
      ["ana@example.test", "case.add", "case", `${caseKey} (custom)`],
      ["bo@example.test", "case.revise", "case", `${caseKey} r2`],
    ]);
  });

  it("a refused edit writes neither a revision nor an activity row (same transaction)", async () => {
    const { id } = await addCase(db, { systemId: "acme", promptId, caseKey: "cap-02", source: "custom", content: content("a", "b"), author: ana });
    const before = db.select().from(activity).all().length;
    await expect(saveCaseRevision(db, id, 7, { ...fields, input: "changed", expected: "b" }, bo)).rejects.toBeInstanceOf(LibraryError);
    expect(db.select().from(activity).all().length).toBe(before);
  });

  it("criterion revisions record their authors", async () => {
    const cid = await addCriterion(db, {
      systemId: "acme",
      promptId,
      fields: { rule: "Be polite", passes: "polite", fails: "rude", priority: "primary" },
      author: ana,
    });
    await editCriterion(db, cid, 1, { rule: "Be very polite", passes: "polite", fails: "rude", priority: "primary" }, bo);
    const revs = db.select().from(criterionRevisions).where(eq(criterionRevisions.criterionId, cid)).orderBy(criterionRevisions.number).all();
    expect(revs.map((r) => r.authorEmail)).toEqual(["ana@example.test", "bo@example.test"]);
  });

  it("a prompt revision saved through the workflow records its author and the list shows it", async () => {
    const p = (await getPrompt(db, promptId))!;
    const saved = await savePromptEdit(
      db,
      "acme",
      { promptId, baseRevisionId: p.revision!.id, systemPrompt: "Help {{customer}} kindly.", modelSettings: {}, tools: [], message: "kinder" },
      bo,
    );
    expect(db.select().from(promptRevisions).where(eq(promptRevisions.id, saved.id)).get()?.authorEmail).toBe("bo@example.test");
    const list = await listPromptRevisions(db, promptId);
    expect(list.map((r) => [r.number, r.authorEmail])).toEqual([
      [2, "bo@example.test"],
      [1, null],
    ]);
  });

  it("a dataset version imported through the workflow records its author", async () => {
    const { saved } = await importDataset(db, {
      systemId: "acme",
      name: "tickets",
      fileName: "tickets.csv",
      bytes: new TextEncoder().encode("input,expected\nwhere is my order,shipped\n"),
      limits: importLimitsFromEnv({}),
      author: ana,
    });
    const v = db.select().from(datasetVersions).where(eq(datasetVersions.id, saved.versionId)).get()!;
    expect([v.authorId, v.authorEmail]).toEqual(["u-ana", "ana@example.test"]);
    const [row] = (await listActivity(db, { action: "dataset.version" })).rows;
    expect([row.actorEmail, row.subjectId, row.detail]).toEqual(["ana@example.test", String(saved.datasetId), "tickets v1 (1 rows)"]);
  });

  it("using a dataset for a prompt: every new case's revision names the author, and the activity has one row for the whole use", async () => {
    const before = db.select().from(activity).all().length;
    const { used } = await importDataset(db, {
      systemId: "acme",
      name: "faq",
      fileName: "faq.csv",
      bytes: new TextEncoder().encode("input,expected\nhow do I pay,by card\ncan I return,within 30 days\n"),
      limits: importLimitsFromEnv({}),
      use: { promptId },
      author: bo,
    });
    expect(used?.added).toBe(2);
    for (const key of used!.caseKeys) {
      const found = await findCaseByKey(db, key);
      expect((await getCase(db, found!.id))?.revisions.map((r) => r.authorEmail)).toEqual(["bo@example.test"]);
    }
    const rows = db.select().from(activity).all().slice(before);
    expect(rows.map((r) => [r.action, r.actorEmail])).toEqual([
      ["dataset.version", "bo@example.test"],
      ["dataset.use", "bo@example.test"],
    ]);
    expect(rows[1].detail).toBe("faq v1 → agent: 2 added, 0 revised");
  });

  it("a bench launch and its cancel record who did them", async () => {
    const recPrompt = await recordedSuite(db, [{ key: "q1", expected: "4", answers: { a: "4" } }]);
    const { id } = await launchFromRequest(db, recordedRequest(recPrompt, ["a"]), { author: ana });
    await requestCancel(db, id, bo);
    await requestCancel(db, id, ana); // a second request changes nothing
    const b = db.select().from(benches).where(eq(benches.id, id)).get()!;
    expect([b.launchedByEmail, b.cancelledByEmail]).toEqual(["ana@example.test", "bo@example.test"]);
    // The trial view and the History read who launched it and who wrote the case revision the trial ran.
    const trialId = db.select({ id: trials.id }).from(trials).where(eq(trials.benchId, id)).get()!.id;
    expect(await getTrial(db, trialId)).toMatchObject({ caseRevisionNumber: 1, caseAuthorEmail: null, launchedByEmail: "ana@example.test" });
    expect((await listBenches(db, "rec")).find((x) => x.id === id)?.launchedByEmail).toBe("ana@example.test");
    const acts = (await listActivity(db, { subjectType: "bench", subjectId: String(id) }, { sort: "at", dir: "asc" })).rows;
    expect(acts.map((a) => [a.action, a.actorEmail])).toEqual([
      ["bench.launch", "ana@example.test"],
      ["bench.cancel", "bo@example.test"],
    ]);
  });
});

describe("listActivity", () => {
  it("filters by actor, action and time range, sorts and pages", async () => {
    const all = await listActivity(db, {});
    expect(all.total).toBeGreaterThan(5);
    const byBo = await listActivity(db, { actor: "bo@example.test" });
    expect(byBo.rows.every((r) => r.actorEmail === "bo@example.test")).toBe(true);
    expect((await listActivity(db, { actor: "u-bo" })).total).toBe(byBo.total);
    const page2 = await listActivity(db, {}, { pageSize: 2, page: 2, sort: "at", dir: "desc" });
    expect(page2.rows.map((r) => r.id)).toEqual(all.rows.slice(2, 4).map((r) => r.id));
    expect((await listActivity(db, { from: Date.now() + 60_000 })).total).toBe(0);
    const byAction = await listActivity(db, {}, { sort: "action", dir: "asc" });
    const actions = byAction.rows.map((r) => r.action);
    expect(actions).toEqual([...actions].sort());
  });

  it("orders changes made in the same millisecond by the order they were made, oldest first when sorted by time ascending", async () => {
    // Found on CI (Node 24): a bench launch and its cancel in one millisecond listed the cancel first.
    const at = 1_700_000_000_000;
    const base = { at, actorId: "u", actorEmail: "u@example.test", subjectType: "tie", systemId: null, detail: "" };
    db.insert(activity)
      .values([
        { ...base, action: "first", subjectId: "t1" },
        { ...base, action: "second", subjectId: "t1" },
      ])
      .run();
    const asc = await listActivity(db, { subjectType: "tie" }, { sort: "at", dir: "asc" });
    expect(asc.rows.map((r) => r.action)).toEqual(["first", "second"]);
    const desc = await listActivity(db, { subjectType: "tie" }, { sort: "at", dir: "desc" });
    expect(desc.rows.map((r) => r.action)).toEqual(["second", "first"]);
  });
});
