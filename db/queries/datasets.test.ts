import { beforeEach, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import type { Db } from "../client";
import { rawRows } from "../dialect";
import { first } from "../rows";
import { cases, datasetVersions, datasets } from "../schema";
import { describeStores } from "../test-support/stores";
import { addCase, getCase, listCases } from "./cases";
import { createUpload, deleteStaleUploads, getUpload, UPLOAD_TTL_MS } from "./dataset-uploads";
import {
  datasetNames,
  datasetVersionUsage,
  getDatasetVersion,
  getDatasetVersionFile,
  listDatasets,
  planDatasetUse,
  saveDatasetVersion,
  adoptDatasetVersion,
  type SaveVersionInput,
} from "./datasets";
import { parseFile } from "@/lib/import/parse";
import type { ColumnMapping } from "@/lib/import/mapping";
import { DatasetError } from "@/lib/datasets/errors";
import { LibraryError } from "@/lib/library/errors";
import { content } from "../testing";
import { createPrompt, createSystem } from "./systems";

const CSV = [
  "question,answer,customer,model_6b_output,category,tags",
  'Where is my order? Mail me at ann@example.com,Ask for the order number,Ann,It is on its way; I wrote to ann@example.com,orders,"shipping, orders"',
  "Can I return a toaster?,,Bob,Yes,returns,",
  "Where is my order? Mail me at ann@example.com,Ask for the order number,,Where?,orders,shipping",
].join("\n");

const MAPPING: ColumnMapping = [
  { column: "question", role: "input" },
  { column: "answer", role: "expected" },
  { column: "customer", role: "variable", variable: "customer" },
  { column: "model_6b_output", role: "actual_output", candidate: "model-6b" },
  { column: "tags", role: "tags" },
];

async function input(text: string, more: Partial<SaveVersionInput> = {}): Promise<SaveVersionInput> {
  const bytes = new TextEncoder().encode(text);
  const table = await parseFile(bytes, "support.csv");
  return { systemId: "acme", name: "support", fileName: "support.csv", fileBytes: bytes, table, mapping: MAPPING, templateVariables: ["customer"], ...more };
}

async function refused<E extends Error>(p: Promise<unknown>, type: new (...a: never[]) => E): Promise<E> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(type);
    return e as E;
  }
  throw new Error("expected a refusal");
}

describeStores("datasets", (store) => {
  let db: Db;
  let agentId: number;
  let routerId: number;

  const count = async (table: typeof cases | typeof datasets | typeof datasetVersions) =>
    (await first(db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(table)))!.n;

  beforeEach(async () => {
    // db/testing.ts's makeTestDb, on this store.
    db = store.db();
    await createSystem(db, { id: "acme", name: "Acme support" });
    agentId = await createPrompt(db, { systemId: "acme", name: "agent", systemPrompt: "You help {{customer}}." });
    routerId = await createPrompt(db, { systemId: "acme", name: "router", systemPrompt: "Route the message." });
  });

  describe("saveDatasetVersion", () => {
    it("saves version 1 and then version 2 under the same name; both stay listed", async () => {
      const v1 = await saveDatasetVersion(db, await input(CSV, { now: 1000 }));
      const v2 = await saveDatasetVersion(db, await input(CSV, { now: 2000, corrections: { 2: { answer: "Within 30 days" } } }));
      const other = await saveDatasetVersion(db, await input(CSV, { name: "  other  " }));
      expect([v1.version, v2.version]).toEqual([1, 2]);
      expect(v2.datasetId).toBe(v1.datasetId);
      expect(other).toMatchObject({ name: "other", version: 1 });
      expect(other.datasetId).not.toBe(v1.datasetId);
      const list = await listDatasets(db, "acme");
      expect(list.map((d) => [d.name, d.versions.map((v) => v.version)])).toEqual([
        ["other", [1]],
        ["support", [2, 1]],
      ]);
      const support = list.find((d) => d.name === "support")!;
      expect(support.versions[1]).toMatchObject({ fileName: "support.csv", rowCount: 3, errorCount: 1, createdAt: 1000 });
      expect(support.versions[0].errorCount).toBe(0);
      expect(await datasetNames(db, "acme")).toEqual([
        { name: "other", latestVersion: 1, redaction: { enabled: true, keep: [] } },
        { name: "support", latestVersion: 2, redaction: { enabled: true, keep: [] } },
      ]);
    });

    it("names who saved each version in the list and on the version (issue 19; none for a version saved without an author)", async () => {
      const v1 = await saveDatasetVersion(db, await input(CSV, { now: 1000 }));
      await saveDatasetVersion(db, await input(CSV, { now: 2000, author: { userId: "u-ed", email: "ed@example.com" } }));
      const listed = (await listDatasets(db, "acme")).find((d) => d.name === "support")!;
      expect(listed.versions.map((v) => [v.version, v.authorEmail])).toEqual([
        [2, "ed@example.com"],
        [1, null],
      ]);
      const detail = (await getDatasetVersion(db, "acme", v1.datasetId, 2))!;
      expect(detail.authorEmail).toBe("ed@example.com");
      expect(detail.versions).toEqual([
        { version: 2, createdAt: 2000, authorEmail: "ed@example.com" },
        { version: 1, createdAt: 1000, authorEmail: null },
      ]);
    });

    it("stores the original file, the whole mapping, redacted rows, the report without personal data, corrections and problems", async () => {
      const saved = await saveDatasetVersion(db, await input(CSV, { excludedRows: [3, 3] }));
      const v = (await getDatasetVersion(db, "acme", saved.datasetId, 1))!;
      expect(new TextDecoder().decode((await getDatasetVersionFile(db, "acme", saved.datasetId, 1))!.fileBytes)).toBe(CSV);
      expect(v.fileSize).toBe(new TextEncoder().encode(CSV).byteLength);
      expect(v.mapping.map((a) => a.role)).toEqual(["input", "expected", "variable", "actual_output", "extra", "tags"]);
      expect(v.records[0].question).toBe("Where is my order? Mail me at [EMAIL_1]");
      // The same address in another column of the row gets the same placeholder.
      expect(v.records[0].model_6b_output).toBe("It is on its way; I wrote to [EMAIL_1]");
      expect(v.records[0].category).toBe("orders");
      expect(v.excludedRows).toEqual([3]);
      expect(v.redaction.totals.email).toBe(3);
      expect(v.redaction.columns).toEqual([
        { column: "question", counts: { email: 2 }, total: 2 },
        { column: "model_6b_output", counts: { email: 1 }, total: 1 },
      ]);
      expect(JSON.stringify(v.redaction)).not.toContain("ann@example.com");
      expect(v.problems).toContainEqual(expect.objectContaining({ severity: "error", code: "missing_expected", row: 2, line: 3, column: "answer" }));
      expect(saved.blockedRows).toEqual([2]);
    });

    it("never changes an earlier version", async () => {
      const v1 = await saveDatasetVersion(db, await input(CSV));
      const before = await getDatasetVersion(db, "acme", v1.datasetId, 1);
      await saveDatasetVersion(db, await input(CSV.replace("Bob", "Carol"), { corrections: { 2: { answer: "Yes" } } }));
      const after = await getDatasetVersion(db, "acme", v1.datasetId, 1);
      expect({ ...after, versions: [] }).toEqual({ ...before, versions: [] });
      expect(after!.versions.map((x) => x.version)).toEqual([2, 1]);
    });

    it("refuses a bad mapping, a correction of an unknown row or column, and a bad name; nothing is stored", async () => {
      await refused(saveDatasetVersion(db, await input(CSV, { mapping: [{ column: "question", role: "input" }] })), DatasetError);
      const e = await refused(saveDatasetVersion(db, await input(CSV, { corrections: { 9: { answer: "x" }, 1: { nope: "x" } } })), DatasetError);
      expect(e.message).toMatch(/row 9, but the file has rows 1–3/);
      expect(e.message).toMatch(/column "nope"/);
      const n = await refused(saveDatasetVersion(db, await input(CSV, { name: " " })), LibraryError);
      expect(n.fieldErrors?.name).toBe("Dataset name is required.");
      await refused(saveDatasetVersion(db, await input(CSV, { systemId: "nope" })), LibraryError);
      expect(await count(datasets)).toBe(0);
      expect(await count(datasetVersions)).toBe(0);
    });

    it("is all or nothing: a consumed upload rolls back the new dataset and version", async () => {
      const uploadId = await createUpload(db, { systemId: "acme", fileName: "support.csv", bytes: new TextEncoder().encode(CSV) });
      await saveDatasetVersion(db, await input(CSV, { uploadId }));
      expect(await getUpload(db, "acme", uploadId)).toBeNull();
      const e = await refused(saveDatasetVersion(db, await input(CSV, { uploadId, name: "again" })), DatasetError);
      expect(e.code).toBe("upload_not_found");
      expect((await listDatasets(db, "acme")).map((d) => d.name)).toEqual(["support"]);
      expect(await count(datasetVersions)).toBe(1);
    });
  });

  describe("adoptDatasetVersion", () => {
    it("copies rows as golden cases with source dataset, origin and recorded outputs; blocked rows stay out", async () => {
      const saved = await saveDatasetVersion(db, await input(CSV));
      const plan = await planDatasetUse(db, { systemId: "acme", datasetId: saved.datasetId, version: 1, promptId: agentId });
      expect(plan).toMatchObject({ promptName: "agent", willAdd: 2, conflicts: [], alreadyAdded: null });
      expect(plan.blocked).toEqual([
        { row: 2, problems: [expect.objectContaining({ code: "missing_expected", column: "answer", message: "Row 2 has no expected result." })] },
      ]);
      expect(plan.warnings).toContainEqual(expect.objectContaining({ code: "missing_variable", row: 3 }));

      const r = await adoptDatasetVersion(db, { systemId: "acme", datasetId: saved.datasetId, version: 1, promptId: agentId });
      expect(r).toMatchObject({ promptName: "agent", added: 2, blockedRows: [2] });
      const page = await listCases(db, { systemId: "acme", source: "dataset" });
      expect(page.total).toBe(2);
      const details = await Promise.all(page.rows.map((row) => getCase(db, row.id)));
      const byRow = new Map(details.map((d) => [(d!.origin as { row: number }).row, d!]));
      const first = byRow.get(1)!;
      expect(first.source).toBe("dataset");
      expect(first.origin).toEqual({ kind: "dataset", datasetId: saved.datasetId, datasetName: "support", version: 1, row: 1 });
      expect(first.content).toMatchObject({
        input: "Where is my order? Mail me at [EMAIL_1]",
        expected: "Ask for the order number",
        recordedOutputs: { "model-6b": "It is on its way; I wrote to [EMAIL_1]" },
        variables: [{ name: "customer", value: "Ann" }],
        tags: ["shipping", "orders"],
        extra: { category: "orders" },
      });
      // Repeated inputs are preserved as separate cases.
      expect(byRow.get(3)!.content.input).toBe(first.content.input);
      expect(byRow.get(3)!.content.variables).toEqual([]);
      expect(await datasetVersionUsage(db, "acme", saved.datasetId, 1)).toEqual([expect.objectContaining({ promptName: "agent", count: 2 })]);
    });

    it("adds the blocked row once it is corrected, or leaves it out once excluded, in a new version", async () => {
      const v1 = await saveDatasetVersion(db, await input(CSV));
      const v2 = await saveDatasetVersion(db, await input(CSV, { corrections: { 2: { answer: "Yes, within 30 days" } } }));
      const v3 = await saveDatasetVersion(db, await input(CSV, { excludedRows: [2] }));
      expect(v2.blockedRows).toEqual([]);
      expect((await planDatasetUse(db, { systemId: "acme", datasetId: v1.datasetId, version: 1, promptId: routerId })).blocked.map((b) => b.row)).toEqual([2]);
      const r2 = await adoptDatasetVersion(db, { systemId: "acme", datasetId: v2.datasetId, version: 2, promptId: agentId });
      expect(r2).toMatchObject({ added: 3, blockedRows: [] });
      const corrected = (await listCases(db, { systemId: "acme", q: "toaster" })).rows[0];
      expect((await getCase(db, corrected.id))!.content.expected).toBe("Yes, within 30 days");
      const r3 = await adoptDatasetVersion(db, { systemId: "acme", datasetId: v3.datasetId, version: 3, promptId: routerId });
      expect(r3).toMatchObject({ added: 2, blockedRows: [] });
    });

    it("refuses a version that is already in the prompt's library, and a version where every row is blocked", async () => {
      const saved = await saveDatasetVersion(db, await input(CSV));
      const q = { systemId: "acme", datasetId: saved.datasetId, version: 1, promptId: agentId };
      await adoptDatasetVersion(db, q);
      const e = await refused(adoptDatasetVersion(db, q), LibraryError);
      expect(e.code).toBe("conflict");
      expect(e.message).toMatch(/Version 1 of "support" is already in the library of agent \(2 cases\)/);
      const none = await saveDatasetVersion(db, await input("question,answer\nHi,\n", { name: "empty", mapping: MAPPING.slice(0, 2) }));
      const e2 = await refused(adoptDatasetVersion(db, { ...q, datasetId: none.datasetId }), LibraryError);
      expect(e2.message).toMatch(/every row is excluded or blocked/);
    });

    it("is all or nothing: a case ID already in the prompt's library refuses the whole version, naming the row and the choices", async () => {
      await addCase(db, { systemId: "acme", promptId: agentId, caseKey: "c-2", source: "custom", content: content("x", "y") });
      const before = await count(cases);
      const text = "id,question,answer\nc-1,A,a\nc-2,B,b\nc-3,C,c\n";
      const saved = await saveDatasetVersion(db, await input(text, { mapping: [{ column: "id", role: "case_id" }, ...MAPPING.slice(0, 2)] }));
      const q = { systemId: "acme", datasetId: saved.datasetId, version: 1, promptId: agentId };
      const preview = await planDatasetUse(db, q);
      expect(preview.conflicts).toEqual([
        { row: 2, caseKey: "c-2", fromEarlierVersion: false, message: 'Row 2: Case ID "c-2" is already used by a case of prompt "agent".' },
      ]);
      expect(preview.collisionChoices).toEqual(["skip", "prefix"]);
      const e = await refused(adoptDatasetVersion(db, q), LibraryError);
      expect(e.message).toMatch(
        /No case was added: 1 case ID\(s\) of this version are already used in this prompt's library: row 2 \(“c-2”\)\. Choose: skip those rows or prefix them/,
      );
      expect(await count(cases)).toBe(before);
    });

    it("the same case IDs can go into another prompt's library (case IDs are unique per prompt)", async () => {
      await addCase(db, { systemId: "acme", promptId: routerId, caseKey: "c-2", source: "custom", content: content("x", "y") });
      const saved = await saveDatasetVersion(
        db,
        await input("id,question,answer\nc-1,A,a\nc-2,B,b\n", { mapping: [{ column: "id", role: "case_id" }, ...MAPPING.slice(0, 2)] }),
      );
      const r = await adoptDatasetVersion(db, { systemId: "acme", datasetId: saved.datasetId, version: 1, promptId: agentId });
      expect(r.caseKeys).toEqual(["c-1", "c-2"]);
    });

    it("collisions: skip leaves the rows out, prefix names them after the dataset", async () => {
      await addCase(db, { systemId: "acme", promptId: agentId, caseKey: "c-2", source: "custom", content: content("x", "y") });
      const mapping: ColumnMapping = [{ column: "id", role: "case_id" }, ...MAPPING.slice(0, 2)];
      const saved = await saveDatasetVersion(db, await input("id,question,answer\nc-1,A,a\nc-2,B,b\n", { mapping }));
      const skip = await adoptDatasetVersion(db, { systemId: "acme", datasetId: saved.datasetId, version: 1, promptId: routerId });
      expect(skip.caseKeys).toEqual(["c-1", "c-2"]);
      const skipped = await adoptDatasetVersion(db, { systemId: "acme", datasetId: saved.datasetId, version: 1, promptId: agentId, onCollision: "skip" });
      expect([skipped.added, skipped.skipped, skipped.caseKeys]).toEqual([1, 1, ["c-1"]]);
      const saved2 = await saveDatasetVersion(db, await input("id,question,answer\nc-1,A,a\nc-2,B,b\n", { name: "other", mapping }));
      const prefixed = await adoptDatasetVersion(db, { systemId: "acme", datasetId: saved2.datasetId, version: 1, promptId: agentId, onCollision: "prefix" });
      expect(prefixed.caseKeys).toEqual(["other-c-1", "other-c-2"]);
      // revise is refused: these cases are not from an earlier version of "other".
      const saved3 = await saveDatasetVersion(db, await input("id,question,answer\nc-1,A,a\n", { name: "third", mapping }));
      const e = await refused(
        adoptDatasetVersion(db, { systemId: "acme", datasetId: saved3.datasetId, version: 1, promptId: agentId, onCollision: "revise" }),
        LibraryError,
      );
      expect(e.message).toContain("New revisions are only made of cases from an earlier version of “third”");
    });

    it("collisions: revise makes new revisions of the cases from an earlier version of the same dataset, in one transaction", async () => {
      const mapping: ColumnMapping = [{ column: "id", role: "case_id" }, ...MAPPING.slice(0, 2)];
      const v1 = await saveDatasetVersion(db, await input("id,question,answer\nc-1,A,a\nc-2,B,b\n", { mapping, checks: [{ kind: "exact" }] }));
      await adoptDatasetVersion(db, { systemId: "acme", datasetId: v1.datasetId, version: 1, promptId: agentId });
      await saveDatasetVersion(db, await input("id,question,answer\nc-1,A,a\nc-2,B,b2\nc-3,C,c\n", { mapping, checks: [{ kind: "exact" }] }));
      const q = { systemId: "acme", datasetId: v1.datasetId, version: 2, promptId: agentId };
      expect((await planDatasetUse(db, q)).collisionChoices).toEqual(["skip", "prefix", "revise"]);
      const r = await adoptDatasetVersion(db, { ...q, onCollision: "revise" });
      expect([r.added, r.revised, r.unchanged, r.caseKeys]).toEqual([1, 1, 1, ["c-3"]]);
      const page = await listCases(db, { systemId: "acme", promptId: agentId, sort: "id-asc" });
      expect(page.rows.map((x) => [x.caseKey, x.expected, x.revisionNumber])).toEqual([
        ["c-1", "a", 1],
        ["c-2", "b2", 2],
        ["c-3", "c", 1],
      ]);
      const c2 = (await getCase(db, page.rows[1].id))!;
      expect(c2.origin).toMatchObject({ kind: "dataset", version: 2, row: 2 });
      expect(c2.content.evaluators).toEqual([{ kind: "exact" }]);
    });

    it("a row the dataset's checks cannot use is named and nothing is added", async () => {
      const mapping: ColumnMapping = MAPPING.slice(0, 2);
      const saved = await saveDatasetVersion(db, await input("question,answer\nA,^a$\nB,(unclosed\n", { mapping, checks: [{ kind: "regex" }] }));
      const before = await count(cases);
      const e = await refused(adoptDatasetVersion(db, { systemId: "acme", datasetId: saved.datasetId, version: 1, promptId: agentId }), LibraryError);
      expect(e.message).toMatch(/^Row 2: the regex check cannot be made from this row: /);
      expect(await count(cases)).toBe(before);
    });

    it("the version's checks travel with it and with the golden cases made from it", async () => {
      const saved = await saveDatasetVersion(db, await input(CSV, { checks: [{ kind: "exact" }, { kind: "contains", ignoreCase: true }], excludedRows: [2] }));
      expect((await getDatasetVersion(db, "acme", saved.datasetId, 1))!.checks).toEqual([{ kind: "exact" }, { kind: "contains", ignoreCase: true }]);
      const r = await adoptDatasetVersion(db, { systemId: "acme", datasetId: saved.datasetId, version: 1, promptId: agentId });
      expect(r.added).toBe(2);
      const page = await listCases(db, { systemId: "acme", promptId: agentId });
      for (const row of page.rows) expect((await getCase(db, row.id))!.content.evaluators).toEqual([{ kind: "exact" }, { kind: "contains", ignoreCase: true }]);
    });

    it("is all or nothing when the insert itself fails half-way: no case of the version remains", async () => {
      const saved = await saveDatasetVersion(db, await input("question,answer\nA,a\nB,b\nC,c\n", { mapping: MAPPING.slice(0, 2) }));
      // A failure on the third insert, after two cases went in.
      if (store.kind === "postgres") {
        await rawRows(
          db,
          sql.raw(
            `CREATE FUNCTION fail_c() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.input = 'C' THEN RAISE EXCEPTION 'disk full'; END IF; RETURN NEW; END $$`,
          ),
        );
        await rawRows(db, sql.raw("CREATE TRIGGER fail_c BEFORE INSERT ON case_revisions FOR EACH ROW EXECUTE FUNCTION fail_c()"));
      } else {
        db.$client.exec(`CREATE TRIGGER fail_c BEFORE INSERT ON case_revisions WHEN NEW.input = 'C' BEGIN SELECT RAISE(ABORT, 'disk full'); END;`);
      }
      const before = await count(cases);
      await expect(adoptDatasetVersion(db, { systemId: "acme", datasetId: saved.datasetId, version: 1, promptId: agentId })).rejects.toThrow(/disk full/);
      expect(await count(cases)).toBe(before);
      if (store.kind === "postgres") await rawRows(db, sql.raw("DROP TRIGGER fail_c ON case_revisions"));
      else db.$client.exec("DROP TRIGGER fail_c");
      expect((await adoptDatasetVersion(db, { systemId: "acme", datasetId: saved.datasetId, version: 1, promptId: agentId })).added).toBe(3);
    });

    it("keeps rows out whose case ID repeats inside the file", async () => {
      const text = "id,question,answer\nk-1,A,a\nk-1,B,b\n";
      const saved = await saveDatasetVersion(db, await input(text, { mapping: [{ column: "id", role: "case_id" }, ...MAPPING.slice(0, 2)] }));
      const r = await adoptDatasetVersion(db, { systemId: "acme", datasetId: saved.datasetId, version: 1, promptId: agentId });
      expect(r).toMatchObject({ added: 1, blockedRows: [2], caseKeys: ["k-1"] });
    });

    it("reads dataset origins of cases on both stores: usage per prompt, the version already added, earlier-version collisions", async () => {
      const mapping: ColumnMapping = [{ column: "id", role: "case_id" }, ...MAPPING.slice(0, 2)];
      const v1 = await saveDatasetVersion(db, await input("id,question,answer\nc-1,A,a\nc-2,B,b\n", { mapping }));
      await saveDatasetVersion(db, await input("id,question,answer\nc-1,A,a\nc-2,B,b2\n", { mapping }));
      const origin = (version: number, row: number) => JSON.stringify({ kind: "dataset", datasetId: v1.datasetId, datasetName: "support", version, row });
      const row = (caseKey: string, promptId: number, o: string | null, createdAt: number) => ({
        caseKey,
        systemId: "acme",
        promptId,
        source: (o ? "dataset" : "custom") as "dataset" | "custom",
        origin: o,
        createdAt,
        updatedAt: createdAt,
      });
      // As "Add golden cases" leaves them (without revisions: only the origins are read here).
      await db.insert(cases).values([row("c-1", agentId, origin(1, 1), 10), row("c-2", agentId, origin(1, 2), 20), row("c-2", routerId, null, 30)]);
      expect(await datasetVersionUsage(db, "acme", v1.datasetId, 1)).toEqual([{ promptId: agentId, promptName: "agent", count: 2, lastAddedAt: 20 }]);
      expect(await datasetVersionUsage(db, "acme", v1.datasetId, 2)).toEqual([]);
      const again = await planDatasetUse(db, { systemId: "acme", datasetId: v1.datasetId, version: 1, promptId: agentId });
      expect(again.alreadyAdded).toEqual({ count: 2, lastAddedAt: 20 });
      const next = await planDatasetUse(db, { systemId: "acme", datasetId: v1.datasetId, version: 2, promptId: agentId });
      expect(next).toMatchObject({ alreadyAdded: null, collisionChoices: ["skip", "prefix", "revise"] });
      expect(next.conflicts.map((c) => [c.caseKey, c.fromEarlierVersion])).toEqual([
        ["c-1", true],
        ["c-2", true],
      ]);
      const other = await planDatasetUse(db, { systemId: "acme", datasetId: v1.datasetId, version: 2, promptId: routerId });
      expect(other.conflicts.map((c) => [c.caseKey, c.fromEarlierVersion])).toEqual([["c-2", false]]);
      expect(other.collisionChoices).toEqual(["skip", "prefix"]);
    });

    it("refuses an unknown version or a prompt of another system", async () => {
      const saved = await saveDatasetVersion(db, await input(CSV));
      expect((await refused(planDatasetUse(db, { systemId: "acme", datasetId: saved.datasetId, version: 7, promptId: agentId }), LibraryError)).code).toBe(
        "not_found",
      );
      expect((await refused(planDatasetUse(db, { systemId: "acme", datasetId: saved.datasetId, version: 1, promptId: 999 }), LibraryError)).code).toBe(
        "validation",
      );
    });
  });

  describe("dataset uploads", () => {
    it("stores an upload for its system only and deletes uploads older than a day", async () => {
      const now = 10 * UPLOAD_TTL_MS;
      const old = await createUpload(db, { systemId: "acme", fileName: "a.csv", bytes: new Uint8Array([1, 2]), now: now - UPLOAD_TTL_MS - 1 });
      const fresh = await createUpload(db, { systemId: "acme", fileName: "b.csv", bytes: new Uint8Array([3]), now });
      expect(await getUpload(db, "other", fresh)).toBeNull();
      expect([...(await getUpload(db, "acme", fresh))!.fileBytes]).toEqual([3]);
      expect(await deleteStaleUploads(db, now)).toBe(1);
      expect(await getUpload(db, "acme", old)).toBeNull();
      expect(await getUpload(db, "acme", fresh)).not.toBeNull();
    });
  });
});
