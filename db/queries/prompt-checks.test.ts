import { beforeEach, expect, it } from "vitest";
import type { Db } from "../client";
import { describeStores } from "../test-support/stores";
import { getPromptDefaultChecks, setPromptDefaultChecks } from "./prompt-checks";
import { seedAcme } from "./test-support/acme";

describeStores("prompt default checks", (store) => {
  let db: Db;
  let agentId: number;
  beforeEach(async () => {
    db = store.db();
    ({ agentId } = await seedAcme(db));
  });

  it("are [] until set, then the stored specs; setting again replaces them", async () => {
    expect(await getPromptDefaultChecks(db, agentId)).toEqual([]);
    await setPromptDefaultChecks(db, "acme", agentId, [{ kind: "exact" }, { kind: "contains", value: "refund" }], 1_000);
    expect(await getPromptDefaultChecks(db, agentId)).toEqual([{ kind: "exact" }, { kind: "contains", value: "refund" }]);
    await setPromptDefaultChecks(db, "acme", agentId, [{ kind: "json" }], 2_000);
    expect(await getPromptDefaultChecks(db, agentId)).toEqual([{ kind: "json" }]);
  });

  it("refuse a prompt outside the system, storing nothing", async () => {
    await expect(setPromptDefaultChecks(db, "other", agentId, [{ kind: "exact" }])).rejects.toMatchObject({
      code: "validation",
      fieldErrors: { promptId: "Prompt #" + agentId + ' does not exist in system "other". Choose one of the system\'s prompts.' },
    });
    expect(await getPromptDefaultChecks(db, agentId)).toEqual([]);
  });
});
