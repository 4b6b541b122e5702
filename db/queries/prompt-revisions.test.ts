import { beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../client";
import { describeStores } from "../test-support/stores";
import { getPromptRevisionByNumber, listPromptRevisions, savePromptRevision } from "./prompt-revisions";
import { createPrompt, createSystem, getPrompt } from "./systems";
import { LibraryError } from "@/lib/library/errors";

async function expectError(p: Promise<unknown>, code: string): Promise<LibraryError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(LibraryError);
    expect((e as LibraryError).code).toBe(code);
    return e as LibraryError;
  }
  throw new Error(`expected a ${code} error`);
}

describeStores("prompt revisions", (store) => {
  let db: Db;
  let agentId: number;

  beforeEach(async () => {
    // db/testing.ts's makeTestDb, on this store.
    db = store.db();
    await createSystem(db, { id: "acme", name: "Acme support" });
    agentId = await createPrompt(db, { systemId: "acme", name: "agent", systemPrompt: "You help {{customer}}." });
  });

  const edit = async (base: number, systemPrompt: string, message: string) => {
    const cur = (await getPrompt(db, agentId))!.revision!;
    return savePromptRevision(db, agentId, base, { systemPrompt, modelSettings: cur.modelSettings, tools: cur.tools, message });
  };

  describe("savePromptRevision", () => {
    it("stores a new immutable revision with its message and makes it current; the old one stays as it was", async () => {
      const r1 = (await getPrompt(db, agentId))!.revision!;
      const saved = await edit(r1.id, "You are terse.", "tighten wording");
      expect(saved.number).toBe(2);
      const now = (await getPrompt(db, agentId))!.revision!;
      expect(now).toMatchObject({ id: saved.id, number: 2, systemPrompt: "You are terse." });
      const history = await listPromptRevisions(db, agentId);
      expect(history.map((r) => [r.number, r.message, r.systemPrompt])).toEqual([
        [2, "tighten wording", "You are terse."],
        [1, "", r1.systemPrompt],
      ]);
      expect((await getPromptRevisionByNumber(db, agentId, 1))!.id).toBe(r1.id);
    });

    it("refuses a save against a stale base with a conflict naming both revisions, and stores nothing", async () => {
      const r1 = (await getPrompt(db, agentId))!.revision!;
      await edit(r1.id, "Edit by Ana.", "Ana's change");
      const e = await expectError(edit(r1.id, "Edit by Ben.", "Ben's change"), "conflict");
      expect(e.message).toBe(
        'Prompt "agent" was changed while you edited it: you started from r1, it is now at r2 ("Ana\'s change"). Nothing was saved; your edits are still in the form. Open the latest revision, then apply them again.',
      );
      expect((await listPromptRevisions(db, agentId)).map((r) => r.message)).toEqual(["Ana's change", ""]);
    });

    it("refuses a save that changes nothing, and a save without a message", async () => {
      const r1 = (await getPrompt(db, agentId))!.revision!;
      await expectError(edit(r1.id, r1.systemPrompt, "no-op"), "unchanged");
      const e = await expectError(edit(r1.id, "Different.", "   "), "validation");
      expect(e.fieldErrors).toEqual({ message: "Say why you made this change (a short message)." });
      expect(await listPromptRevisions(db, agentId)).toHaveLength(1);
    });

    it("refuses an unknown prompt", async () => {
      await expectError(savePromptRevision(db, 9999, 1, { systemPrompt: "x", modelSettings: {}, tools: [], message: "m" }), "not_found");
    });
  });
});
