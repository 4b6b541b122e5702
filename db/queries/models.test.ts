import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { benches } from "../schema";
import { describeStores } from "../test-support/stores";
import { createModelConfig, deleteModelConfig, getModelConfig, getModelConfigByName, listModelConfigs, updateModelConfig } from "./models";
import { createPrompt, createSystem } from "./systems";
import { LibraryError } from "@/lib/library/errors";
import type { ModelConfig } from "@/lib/runtime/model-config";

const mini: ModelConfig = { name: "mini", provider: "openai", modelId: "gpt-4o-mini", temperature: 0 };

describeStores("model configurations", (store) => {
  it("creates, lists by name, renames and refuses a taken name", async () => {
    const db = store.db();
    const a = await createModelConfig(db, mini);
    await createModelConfig(db, { ...mini, name: "big", modelId: "gpt-4o" });
    expect((await listModelConfigs(db)).map((c) => c.name)).toEqual(["big", "mini"]);
    await expect(createModelConfig(db, mini)).rejects.toMatchObject({ code: "validation", fieldErrors: { name: "This name is taken." } });
    await updateModelConfig(db, a, { ...mini, name: "small" });
    expect(await getModelConfig(db, a)).toMatchObject({ id: String(a), name: "small", modelId: "gpt-4o-mini", temperature: 0 });
    expect(await getModelConfigByName(db, "mini")).toBeNull();
    await expect(updateModelConfig(db, a, { ...mini, name: "big" })).rejects.toMatchObject({ code: "validation" });
  });

  it("refuses to delete a configuration that a running bench judges with, and deletes it once the bench finished", async () => {
    const db = store.db();
    const judge = await createModelConfig(db, mini);
    await createSystem(db, { id: "acme", name: "Acme" });
    const promptId = await createPrompt(db, { systemId: "acme", name: "agent", systemPrompt: "Hi." });
    const [bench] = await db
      .insert(benches)
      .values({
        systemId: "acme",
        promptId,
        title: "judged",
        status: "running",
        launchKey: "k1",
        settings: "{}",
        rubric: "[]",
        rubricHash: "h",
        baseline: "{}",
        judge: JSON.stringify({ ...mini, id: String(judge) }),
        trialCount: 0,
        createdAt: 1,
      })
      .returning({ id: benches.id });
    const refused = await deleteModelConfig(db, judge).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LibraryError);
    expect(refused).toMatchObject({ code: "not_allowed" });
    expect((refused as Error).message).toContain(`#${bench.id} judged`);
    expect(await getModelConfig(db, judge)).not.toBeNull();

    await db.update(benches).set({ status: "finished" }).where(eq(benches.id, bench.id));
    await deleteModelConfig(db, judge);
    expect(await getModelConfig(db, judge)).toBeNull();
    await expect(deleteModelConfig(db, judge)).rejects.toMatchObject({ code: "not_found" });
  });
});
