import { beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { content, makeTestDb } from "@/db/testing";
import { addCases, setCaseStatus } from "@/db/queries/cases";
import { listPromptRevisions } from "@/db/queries/prompt-revisions";
import { getPrompt } from "@/db/queries/systems";
import { promptEditSchema } from "@/lib/prompts/edit";
import { reviewPromptEdit, savePromptEdit } from "./prompts";

let db: Db;
let agentId: number;
beforeEach(async () => {
  ({ db, agentId } = await makeTestDb());
});

const edit = async (systemPrompt: string, o: { base?: number; message?: string } = {}) =>
  promptEditSchema.parse({
    promptId: agentId,
    baseRevisionId: o.base ?? (await getPrompt(db, agentId))!.revision!.id,
    systemPrompt,
    message: o.message ?? "why",
  });

describe("reviewPromptEdit", () => {
  it("lists the variables some active cases lack (paused cases do not count) and stores nothing", async () => {
    const ids = await addCases(db, [
      {
        systemId: "acme",
        promptId: agentId,
        caseKey: "with-both",
        source: "custom",
        content: content("q", "a", {
          variables: [
            { name: "customer", value: "Ana" },
            { name: "tier", value: "gold" },
          ],
        }),
      },
      {
        systemId: "acme",
        promptId: agentId,
        caseKey: "customer-only",
        source: "custom",
        content: content("q", "a", { variables: [{ name: "customer", value: "Ben" }] }),
      },
      { systemId: "acme", promptId: agentId, caseKey: "paused", source: "custom", content: content("q", "a") },
    ]);
    await setCaseStatus(db, ids[2].id, "paused");
    const r = await reviewPromptEdit(db, "acme", await edit("You help {{customer}}, a {{tier}} member."));
    expect(r.missing).toEqual([{ name: "tier", introduced: true, caseCount: 1, caseKeys: ["customer-only"] }]);
    expect(await listPromptRevisions(db, agentId)).toHaveLength(1);
  });

  it("refuses a stale base before saving, with the message a save would give", async () => {
    const r1 = (await getPrompt(db, agentId))!.revision!.id;
    await savePromptEdit(db, "acme", await edit("Second.", { message: "second" }));
    await expect(reviewPromptEdit(db, "acme", await edit("Third.", { base: r1 }))).rejects.toThrow('you started from r1, it is now at r2 ("second")');
    await expect(savePromptEdit(db, "acme", await edit("Third.", { base: r1 }))).rejects.toThrow('you started from r1, it is now at r2 ("second")');
  });

  it("refuses a prompt of another system", async () => {
    await expect(reviewPromptEdit(db, "other", await edit("x"))).rejects.toThrow(/does not exist in system "other"/);
  });
});
