import { describe, expect, it } from "vitest";
import { addCase, getCase } from "@/db/queries/cases";
import { content, makeTestDb } from "@/db/testing";
import { LibraryError } from "@/lib/library/errors";
import { bulkCaseCheck } from "./bulk-checks";

describe("bulkCaseCheck (issue 15)", () => {
  it("adds a check to every case matching the filter as new revisions, leaving cases that have it or lack an expected result", async () => {
    const { db, agentId, routerId } = await makeTestDb();
    const a = await addCase(db, { systemId: "acme", promptId: routerId, caseKey: "a", source: "dataset", content: content("q1", "Paris") });
    const b = await addCase(db, {
      systemId: "acme",
      promptId: routerId,
      caseKey: "b",
      source: "dataset",
      content: content("q2", "Rome", { evaluators: [{ kind: "exact" }] }),
    });
    const c = await addCase(db, {
      systemId: "acme",
      promptId: routerId,
      caseKey: "c",
      source: "custom",
      content: content("q3", "", { evaluators: [{ kind: "non_empty" }] }),
    });
    const other = await addCase(db, { systemId: "acme", promptId: agentId, caseKey: "x", source: "dataset", content: content("q4", "Bern") });
    const r = await bulkCaseCheck(db, { systemId: "acme", target: { kind: "filter", filter: { promptId: routerId } }, op: "add", check: "exact" });
    expect(r).toEqual({ revised: 1, unchanged: 1, noExpected: ["c"] });
    const ca = (await getCase(db, a.id))!;
    expect([ca.revisionNumber, ca.content.evaluators]).toEqual([2, [{ kind: "exact" }]]);
    expect((await getCase(db, b.id))!.revisionNumber).toBe(1);
    expect((await getCase(db, c.id))!.revisionNumber).toBe(1);
    expect((await getCase(db, other.id))!.revisionNumber).toBe(1);
  });

  it("removes a check from the ticked rows only", async () => {
    const { db, routerId } = await makeTestDb();
    const a = await addCase(db, {
      systemId: "acme",
      promptId: routerId,
      caseKey: "a",
      source: "dataset",
      content: content("q1", "Paris", { evaluators: [{ kind: "exact" }, { kind: "json" }] }),
    });
    const b = await addCase(db, {
      systemId: "acme",
      promptId: routerId,
      caseKey: "b",
      source: "dataset",
      content: content("q2", "Rome", { evaluators: [{ kind: "exact", ignoreCase: true }] }),
    });
    const r = await bulkCaseCheck(db, { systemId: "acme", target: { kind: "ids", caseIds: [a.id] }, op: "remove", check: "exact" });
    expect(r.revised).toBe(1);
    expect((await getCase(db, a.id))!.content.evaluators).toEqual([{ kind: "json" }]);
    expect((await getCase(db, b.id))!.content.evaluators).toEqual([{ kind: "exact", ignoreCase: true }]);
  });

  it("is all or nothing: a selected case of another system refuses the whole action", async () => {
    const { db, routerId } = await makeTestDb();
    const a = await addCase(db, { systemId: "acme", promptId: routerId, caseKey: "a", source: "dataset", content: content("q1", "Paris") });
    await expect(bulkCaseCheck(db, { systemId: "acme", target: { kind: "ids", caseIds: [a.id, 9999] }, op: "add", check: "exact" })).rejects.toThrow(
      LibraryError,
    );
    expect((await getCase(db, a.id))!.revisionNumber).toBe(1);
    await expect(bulkCaseCheck(db, { systemId: "acme", target: { kind: "ids", caseIds: [] }, op: "add", check: "exact" })).rejects.toThrow(
      /No case is selected/,
    );
  });
});
