import { beforeEach, describe, expect, it } from "vitest";
import { content } from "../testing";
import type { Db } from "../client";
import { describeStores } from "../test-support/stores";
import { addCase, customizeCase, getCase, saveCaseRevision } from "./cases";
import { seedAcme } from "./test-support/acme";

describeStores("generated cases", (store) => {
  let db: Db;
  let agentId: number;
  beforeEach(async () => {
    db = store.db();
    ({ agentId } = await seedAcme(db));
  });

  const generated = () =>
    addCase(db, {
      systemId: "acme",
      promptId: agentId,
      source: "generated",
      origin: { kind: "generated", runId: "run-1", proposalId: 3, model: "mock:gen" },
      content: content("Kettle broke", "Asks for the order", { variables: [{ name: "customer", value: "Ada" }], tags: ["generated"] }),
    });

  describe("generated cases are read-only with Customize", () => {
    it("refuses to edit a generated case and says to use Customize", async () => {
      const g = await generated();
      await expect(
        saveCaseRevision(db, g.id, 1, { input: "Changed", expected: "Asks for the order", notes: "", history: [], variables: [], context: [] }),
      ).rejects.toMatchObject({
        code: "not_allowed",
        message: "Generated cases are read-only. Use Customize to make an editable copy.",
      });
      expect((await getCase(db, g.id))!.revisionNumber).toBe(1);
    });

    it("Customize makes an editable custom copy, pauses the generated one, and is refused a second time", async () => {
      const g = await generated();
      const copy = await customizeCase(db, g.id);
      const c = (await getCase(db, copy.id))!;
      expect(c).toMatchObject({ source: "custom", status: "active", origin: { kind: "generated", fromCaseId: g.id, runId: "run-1" } });
      expect(c.content).toMatchObject({ input: "Kettle broke", expected: "Asks for the order", variables: [{ name: "customer", value: "Ada" }] });
      expect((await getCase(db, g.id))!.status).toBe("paused");
      await expect(
        saveCaseRevision(db, copy.id, 1, { input: "Changed", expected: "Asks for the order", notes: "", history: [], variables: [], context: [] }),
      ).resolves.toEqual({ revisionNumber: 2 });
      await expect(customizeCase(db, g.id)).rejects.toThrow(`This case is already customized: ${copy.caseKey} is its editable copy.`);
    });

    it("Customize is only for generated cases", async () => {
      const c = await addCase(db, { systemId: "acme", promptId: agentId, source: "custom", content: content("a", "b") });
      await expect(customizeCase(db, c.id)).rejects.toMatchObject({ code: "not_allowed" });
    });
  });
});
