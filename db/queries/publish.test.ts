import { beforeEach, describe, expect, it } from "vitest";
import { tool } from "ai";
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../client";
import { caseRevisions, cases } from "../schema";
import { describeStores } from "../test-support/stores";
import { content } from "../testing";
import { addCase, findCaseByKey, getCase, saveCaseRevision, setCaseStatus } from "./cases";
import { createPrompt, createSystem, listPrompts } from "./systems";
import { publishRelease, type CodeOrigin } from "./publish";
import { LibraryError } from "@/lib/library/errors";
import { compileBenchmark, type LoadedModule } from "@/lib/suite/compile";
import type { Release } from "@/lib/suite/types";

const tools = {
  lookup_policy: tool({ description: "Look up a policy.", inputSchema: z.object({ topic: z.string() }), execute: async () => ({}) }),
};

/** Compiles a small release: an inline eval and a CSV eval (the CSV text is a parameter). */
async function release(csv: string, extraInline: Record<string, unknown>[] = []): Promise<Release> {
  const evalModules: LoadedModule[] = [
    {
      file: "evals/lookup.ts",
      value: {
        id: "policy-lookup",
        systemPrompt: "Look policies up first.",
        tools: ["lookup_policy"],
        evaluate: { kind: "non_empty" },
        cases: [{ id: "lookup-returns", prompt: "Find the return policy.", criteria: "Cites the policy" }, ...extraInline],
      },
    },
    {
      file: "evals/refunds.ts",
      value: { id: "refunds", systemPrompt: "Answer with the duration.", evaluate: { kind: "contains" }, labels: ["policy"], cases: "refunds.csv" },
    },
  ];
  const r = await compileBenchmark({
    configFile: "benchmark.config.ts",
    config: { protocolVersion: 1, title: "Support", version: "1.0.0", license: "MIT", tools: ["tools/api.ts"], evals: evalModules.map((m) => m.file) },
    toolModules: [{ file: "tools/api.ts", value: { tools } }],
    evalModules,
    readFile: () => new TextEncoder().encode(csv),
  });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.compiled.release;
}

const CSV_V1 = "id,prompt,expected\nunopened,Unopened window?,30 days\nholiday,Holiday window?,60 days\n,Damaged items?,replacement\n";

describeStores("publish", (store) => {
  let db: Db;

  beforeEach(async () => {
    // db/testing.ts's makeTestDb, on this store.
    db = store.db();
    await createSystem(db, { id: "acme", name: "Acme support" });
    await createPrompt(db, { systemId: "acme", name: "agent", systemPrompt: "You help {{customer}}." });
    await createPrompt(db, { systemId: "acme", name: "router", systemPrompt: "Route the message." });
  });

  /** The live case of `key` with its current revision, read without db/queries/cases.ts. */
  async function stored(key: string) {
    const [row] = await db
      .select({
        promptId: cases.promptId,
        source: cases.source,
        status: cases.status,
        revisionNumber: cases.revisionNumber,
        origin: cases.origin,
        expected: caseRevisions.expected,
      })
      .from(cases)
      .innerJoin(caseRevisions, eq(caseRevisions.id, cases.currentRevisionId))
      .where(and(eq(cases.caseKey, key), eq(cases.systemId, "acme")))
      .orderBy(asc(cases.id));
    return row ? { ...row, origin: JSON.parse(row.origin!) as CodeOrigin } : undefined;
  }

  async function caseOf(key: string) {
    const found = await findCaseByKey(db, key);
    if (!found) throw new Error(`no case ${key}`);
    return (await getCase(db, found.id))!;
  }

  async function expectLibraryError(p: Promise<unknown>, code: string): Promise<LibraryError> {
    try {
      await p;
    } catch (e) {
      expect(e).toBeInstanceOf(LibraryError);
      expect((e as LibraryError).code).toBe(code);
      return e as LibraryError;
    }
    throw new Error(`expected ${code}`);
  }

  describe("publishRelease", () => {
    it("creates one prompt per eval and the cases with source code, file/row origin and their checks", async () => {
      const rel = await release(CSV_V1);
      const report = await publishRelease(db, { systemId: "acme", release: rel });
      expect(report).toMatchObject({
        systemId: "acme",
        release: rel.contentHash,
        promptsCreated: ["policy-lookup", "refunds"],
        created: ["lookup-returns", "unopened", "holiday", "refunds[2]"],
        revised: [],
        unchanged: [],
        disappeared: [],
        warnings: [],
      });
      const prompts = await listPrompts(db, "acme");
      const lookup = prompts.find((p) => p.name === "policy-lookup")!;
      expect(lookup.revision).toMatchObject({ number: 1, systemPrompt: "Look policies up first." });
      expect(lookup.revision!.tools).toEqual([
        { name: "lookup_policy", description: "Look up a policy.", inputSchema: expect.objectContaining({ type: "object", required: ["topic"] }) },
      ]);

      const holiday = await caseOf("holiday");
      expect(holiday).toMatchObject({ source: "code", status: "active", promptName: "refunds", revisionNumber: 1 });
      expect(holiday.origin).toMatchObject({ kind: "code", file: "evals/refunds.csv", row: 2, release: rel.contentHash, eval: "refunds" });
      expect((holiday.origin as CodeOrigin).contentHash).toMatch(/^sha256:/);
      expect(holiday.content).toMatchObject({ input: "Holiday window?", expected: "60 days", tags: ["policy"], evaluators: [{ kind: "contains" }], tools: [] });
      const lookupCase = await caseOf("lookup-returns");
      expect(lookupCase.origin).toEqual(expect.objectContaining({ kind: "code", file: "evals/lookup.ts" }));
      expect((lookupCase.origin as CodeOrigin).row).toBeUndefined();
      expect(lookupCase.content.evaluators).toEqual([{ kind: "non_empty" }, { kind: "judge", criterion: { rule: "Cites the policy" }, mode: "binary" }]);
      expect(lookupCase.content.tools).toEqual(["lookup_policy"]);
    });

    it("publishing the same release again changes nothing", async () => {
      const rel = await release(CSV_V1);
      await publishRelease(db, { systemId: "acme", release: rel });
      const again = await publishRelease(db, { systemId: "acme", release: rel });
      expect(again).toMatchObject({
        promptsCreated: [],
        created: [],
        revised: [],
        unchanged: ["lookup-returns", "unopened", "holiday", "refunds[2]"],
        disappeared: [],
      });
      expect((await caseOf("holiday")).revisionNumber).toBe(1);
    });

    it("makes new revisions only for changed cases, adds new ones, and lists (never pauses) cases that disappeared", async () => {
      await publishRelease(db, { systemId: "acme", release: await release(CSV_V1) });
      const v2 = await release("id,prompt,expected\nunopened,Unopened window?,thirty days\nholiday,Holiday window?,60 days\nwarranty,Warranty?,one year\n", [
        { id: "lookup-shipping", prompt: "Find the shipping policy." },
      ]);
      const report = await publishRelease(db, { systemId: "acme", release: v2 });
      expect(report.created).toEqual(["lookup-shipping", "warranty"]);
      expect(report.revised).toEqual([{ caseKey: "unopened", revision: 2 }]);
      expect(report.unchanged).toEqual(["lookup-returns", "holiday"]);
      expect(report.disappeared).toEqual([{ caseKey: "refunds[2]", promptName: "refunds", status: "active", file: "evals/refunds.csv", row: 3 }]);
      const unopened = await caseOf("unopened");
      expect(unopened.revisions.map((r) => r.number)).toEqual([2, 1]);
      expect(unopened.content.expected).toBe("thirty days");
      expect((unopened.origin as CodeOrigin).release).toBe(v2.contentHash);
      const holiday = await caseOf("holiday");
      expect(holiday.revisionNumber).toBe(1);
      expect((holiday.origin as CodeOrigin).row).toBe(2);
      const gone = await caseOf("refunds[2]");
      expect(gone).toMatchObject({ status: "active", revisionNumber: 1, removedAt: null });
      expect(gone.content.expected).toBe("replacement");
    });

    it("keeps an edit made in the library until the code of that case changes", async () => {
      await publishRelease(db, { systemId: "acme", release: await release(CSV_V1) });
      const holiday = await caseOf("holiday");
      await saveCaseRevision(db, holiday.id, 1, { input: "Holiday window?", expected: "60 days (edited)", notes: "", history: [], variables: [], context: [] });
      const same = await publishRelease(db, { systemId: "acme", release: await release(CSV_V1) });
      expect(same.unchanged).toContain("holiday");
      expect((await caseOf("holiday")).content.expected).toBe("60 days (edited)");
      const changed = await publishRelease(db, { systemId: "acme", release: await release(CSV_V1.replace("60 days", "sixty days")) });
      expect(changed.revised).toEqual([{ caseKey: "holiday", revision: 3 }]);
      expect(changed.warnings).toEqual([expect.stringMatching(/^case "holiday" was edited in the library since it was last published; its code changed too/)]);
      expect((await caseOf("holiday")).content.expected).toBe("sixty days");
    });

    it("leaves a paused case paused when it gets a new revision", async () => {
      await publishRelease(db, { systemId: "acme", release: await release(CSV_V1) });
      await setCaseStatus(db, (await caseOf("unopened")).id, "paused");
      const r = await publishRelease(db, { systemId: "acme", release: await release(CSV_V1.replace("30 days", "thirty days")) });
      expect(r.revised).toEqual([{ caseKey: "unopened", revision: 2 }]);
      expect(r.warnings).toContain('case "unopened" is paused in the library; its new revision stays paused');
      expect((await caseOf("unopened")).status).toBe("paused");
    });

    it("puts every case into --prompt NAME and says which tools that prompt lacks", async () => {
      const r = await publishRelease(db, { systemId: "acme", release: await release(CSV_V1), promptName: "agent" });
      expect(r.promptsCreated).toEqual([]);
      expect(r.warnings).toEqual(['prompt "agent" has no definition of tool lookup_policy; the app cannot expose it to models']);
      expect((await caseOf("holiday")).promptName).toBe("agent");
    });

    it("refuses case ids held by non-code cases of the target prompt, listing every one, and writes nothing", async () => {
      const agentId = (await listPrompts(db, "acme")).find((p) => p.name === "agent")!.id;
      await addCase(db, { systemId: "acme", promptId: agentId, caseKey: "holiday", source: "custom", content: content("a", "b") });
      await addCase(db, { systemId: "acme", promptId: agentId, caseKey: "unopened", source: "dataset", content: content("a", "b") });
      const err = await expectLibraryError(publishRelease(db, { systemId: "acme", release: await release(CSV_V1), promptName: "agent" }), "duplicate_case_id");
      expect(err.message).toBe(
        'Case ids already taken in the library (nothing was published): "unopened" is used by a dataset case of prompt "agent"; "holiday" is used by a custom case of prompt "agent". Rename these cases in the code.',
      );
      expect((await listPrompts(db, "acme")).map((p) => p.name)).toEqual(["agent", "router"]);
      expect(await findCaseByKey(db, "lookup-returns")).toBeNull();
    });

    it("publishes into another prompt the case ids that a non-code case of a different prompt holds (case IDs are unique per prompt)", async () => {
      const agentId = (await listPrompts(db, "acme")).find((p) => p.name === "agent")!.id;
      const custom = await addCase(db, { systemId: "acme", promptId: agentId, caseKey: "holiday", source: "custom", content: content("a", "b") });
      const r = await publishRelease(db, { systemId: "acme", release: await release(CSV_V1) });
      expect(r.created).toContain("holiday");
      expect((await findCaseByKey(db, "holiday", agentId))!.id).toBe(custom.id);
    });

    it("creates, leaves unchanged, revises and lists disappeared cases, in the report and in the store", async () => {
      const v1 = await release(CSV_V1);
      expect(await publishRelease(db, { systemId: "acme", release: v1 })).toMatchObject({
        promptsCreated: ["policy-lookup", "refunds"],
        created: ["lookup-returns", "unopened", "holiday", "refunds[2]"],
      });
      expect(await stored("holiday")).toMatchObject({
        source: "code",
        status: "active",
        revisionNumber: 1,
        expected: "60 days",
        origin: { file: "evals/refunds.csv", row: 2 },
      });
      expect(await publishRelease(db, { systemId: "acme", release: v1 })).toMatchObject({
        created: [],
        revised: [],
        unchanged: ["lookup-returns", "unopened", "holiday", "refunds[2]"],
      });
      const v2 = await release("id,prompt,expected\nunopened,Unopened window?,thirty days\nholiday,Holiday window?,60 days\n");
      const report = await publishRelease(db, { systemId: "acme", release: v2 });
      expect(report).toMatchObject({ created: [], revised: [{ caseKey: "unopened", revision: 2 }], unchanged: ["lookup-returns", "holiday"] });
      expect(report.disappeared).toEqual([{ caseKey: "refunds[2]", promptName: "refunds", status: "active", file: "evals/refunds.csv", row: 3 }]);
      expect(await stored("unopened")).toMatchObject({ revisionNumber: 2, expected: "thirty days", origin: { release: v2.contentHash } });
      expect(await stored("refunds[2]")).toMatchObject({ revisionNumber: 1, status: "active", expected: "replacement" });
    });

    it("refuses a case id held by a non-code case of the target prompt and writes nothing", async () => {
      const agentId = (await listPrompts(db, "acme")).find((p) => p.name === "agent")!.id;
      await db.insert(cases).values({ caseKey: "holiday", systemId: "acme", promptId: agentId, source: "custom", createdAt: 1, updatedAt: 1 });
      const err = await expectLibraryError(publishRelease(db, { systemId: "acme", release: await release(CSV_V1), promptName: "agent" }), "duplicate_case_id");
      expect(err.message).toContain('"holiday" is used by a custom case of prompt "agent"');
      expect(await db.select({ key: cases.caseKey }).from(cases)).toEqual([{ key: "holiday" }]);
    });

    it("refuses an unknown system", async () => {
      await expectLibraryError(publishRelease(db, { systemId: "nope", release: await release(CSV_V1) }), "not_found");
    });
  });
});
