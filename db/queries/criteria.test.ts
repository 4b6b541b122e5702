import { beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { criterionRevisions } from "../schema";
import { describeStores } from "../test-support/stores";
import { seedAcme } from "./test-support/acme";
import {
  activeRubric,
  addCriterion,
  customizeCriterion,
  editCriterion,
  getCriterion,
  listCriteria,
  listCriterionRevisions,
  setCriterionStatus,
} from "./criteria";
import { LibraryError } from "@/lib/library/errors";

describeStores("criteria", (store) => {
  let db: Db;
  let agentId: number;
  let routerId: number;
  const rule = { rule: "States the return window in days", passes: "Says 30 days", fails: "No number of days", priority: "primary" as const };

  beforeEach(async () => {
    db = store.db();
    ({ agentId, routerId } = await seedAcme(db));
  });

  async function code(p: Promise<unknown>): Promise<string> {
    try {
      await p;
      return "ok";
    } catch (e) {
      expect(e).toBeInstanceOf(LibraryError);
      return (e as LibraryError).code;
    }
  }

  describe("criteria", () => {
    it("adds, edits into a new revision, and keeps the old revision", async () => {
      const id = await addCriterion(db, { systemId: "acme", promptId: agentId, fields: rule });
      expect(await editCriterion(db, id, 1, { ...rule, priority: "secondary" })).toEqual({ revisionNumber: 2 });
      const c = (await getCriterion(db, id))!;
      expect(c.priority).toBe("secondary");
      expect(c.revisionNumber).toBe(2);
      const revs = await listCriterionRevisions(db, id);
      expect(revs.map((r) => [r.number, r.priority])).toEqual([
        [2, "secondary"],
        [1, "primary"],
      ]);
    });

    it("refuses a rule that an active criterion of the same prompt already has (spacing and case aside)", async () => {
      const first = await addCriterion(db, { systemId: "acme", promptId: agentId, fields: rule });
      await expect(
        addCriterion(db, { systemId: "acme", promptId: agentId, fields: { ...rule, rule: "  states the RETURN window\nin days " } }),
      ).rejects.toMatchObject({
        code: "validation",
        fieldErrors: { rule: expect.stringContaining("“States the return window in days” already has this rule") },
      });
      // Another prompt may have the same rule; so may a different rule on this prompt.
      await addCriterion(db, { systemId: "acme", promptId: routerId, fields: rule });
      const other = await addCriterion(db, { systemId: "acme", promptId: agentId, fields: { ...rule, rule: "Apologizes once" } });
      expect(await code(editCriterion(db, other, 1, { ...rule }))).toBe("validation");
      expect((await getCriterion(db, other))!.rule).toBe("Apologizes once");
      // A paused criterion does not judge: its rule may be written again, but it cannot resume beside the copy.
      await setCriterionStatus(db, first, "paused");
      const again = await addCriterion(db, { systemId: "acme", promptId: agentId, fields: rule });
      expect(await code(setCriterionStatus(db, first, "active"))).toBe("validation");
      expect((await getCriterion(db, first))!.status).toBe("paused");
      await setCriterionStatus(db, again, "paused");
      await setCriterionStatus(db, first, "active");
      expect((await activeRubric(db, agentId)).map((c) => c.id)).toEqual([first, other]);
    });

    it("duplicate rules: invisible characters do not count, edits that keep the rule pass, Customize twice is refused", async () => {
      const first = await addCriterion(db, { systemId: "acme", promptId: agentId, fields: rule });
      await expect(
        addCriterion(db, { systemId: "acme", promptId: agentId, fields: { ...rule, rule: "States the return\u200b window in days\ufeff" } }),
      ).rejects.toMatchObject({
        code: "validation",
        message: "This rule is already in the rubric.",
        fieldErrors: { rule: expect.stringContaining("“States the return window in days”") },
      });
      // Twins made before this check existed can still be edited as long as the rule stays.
      const twin = await addCriterion(db, { systemId: "acme", promptId: agentId, fields: { ...rule, rule: "Temp" } });
      await db.update(criterionRevisions).set({ rule: rule.rule }).where(eq(criterionRevisions.criterionId, twin));
      expect(await editCriterion(db, twin, 1, { ...rule, passes: "Says 30 days, in those words" })).toEqual({ revisionNumber: 2 });
      // Resuming says what to do.
      await setCriterionStatus(db, twin, "paused");
      await expect(setCriterionStatus(db, twin, "active")).rejects.toThrow(
        /Not resumed: the active criterion “States the return window in days” has the same rule; pause it first/,
      );
      void first;

      const gen = await addCriterion(db, { systemId: "acme", promptId: routerId, origin: "generated", fields: { ...rule, rule: "Names the intent" } });
      await customizeCriterion(db, gen);
      await expect(customizeCriterion(db, gen)).rejects.toMatchObject({ code: "not_allowed", message: expect.stringContaining("already customized") });
      expect((await listCriteria(db, routerId)).filter((c) => c.status === "active")).toHaveLength(1);
    });

    it("refuses stale and empty edits", async () => {
      const id = await addCriterion(db, { systemId: "acme", promptId: agentId, fields: rule });
      await editCriterion(db, id, 1, { ...rule, rule: "A" });
      expect(await code(editCriterion(db, id, 1, { ...rule, rule: "B" }))).toBe("conflict");
      expect(await code(editCriterion(db, id, 2, { ...rule, rule: "A" }))).toBe("unchanged");
      expect((await getCriterion(db, id))!.rule).toBe("A");
    });

    it("pauses out of the rubric and resumes", async () => {
      const id = await addCriterion(db, { systemId: "acme", promptId: agentId, fields: rule });
      await setCriterionStatus(db, id, "paused");
      expect(await activeRubric(db, agentId)).toEqual([]);
      await setCriterionStatus(db, id, "active");
      expect((await activeRubric(db, agentId)).map((c) => c.id)).toEqual([id]);
    });

    it("generated criteria are read-only; Customize makes a linked custom copy and pauses the original", async () => {
      const gid = await addCriterion(db, { systemId: "acme", promptId: routerId, origin: "generated", fields: rule });
      expect(await code(editCriterion(db, gid, 1, { ...rule, rule: "x" }))).toBe("not_allowed");
      const cid = await customizeCriterion(db, gid);
      const list = await listCriteria(db, routerId);
      expect(list.map((c) => [c.id, c.origin, c.status])).toEqual([
        [cid, "custom", "active"],
        [gid, "generated", "paused"],
      ]);
      expect((await getCriterion(db, cid))!.customizedFromId).toBe(gid);
      expect((await getCriterion(db, gid))!.rule).toBe(rule.rule);
      expect(await code(customizeCriterion(db, cid))).toBe("not_allowed");
    });

    it("refuses a prompt outside the system", async () => {
      expect(await code(addCriterion(db, { systemId: "acme", promptId: 12345, fields: rule }))).toBe("validation");
    });
  });
});
