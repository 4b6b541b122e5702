import { expect, it } from "vitest";
import { cases } from "../schema";
import { describeStores } from "../test-support/stores";
import { caseCountsBySource, createPrompt, createSystem, getPrompt, getSystem, listPrompts, listSystems } from "./systems";

describeStores("systems and prompts", (store) => {
  it("lists systems with prompt and live-case counts, and counts cases by source within a prompt", async () => {
    const db = store.db();
    await createSystem(db, { id: "zeta", name: "Zeta" });
    await createSystem(db, { id: "acme", name: "Acme", description: "support" });
    const agent = await createPrompt(db, { systemId: "acme", name: "agent", systemPrompt: "You help.", modelSettings: { temperature: 0 } });
    const router = await createPrompt(db, { systemId: "acme", name: "router", systemPrompt: "Route." });
    const row = (caseKey: string, promptId: number, source: "custom" | "dataset") => ({
      caseKey,
      systemId: "acme",
      promptId,
      source,
      createdAt: 1,
      updatedAt: 1,
    });
    await db.insert(cases).values([row("a", agent, "custom"), row("b", agent, "dataset"), row("c", agent, "dataset"), row("d", router, "custom")]);

    expect(await listSystems(db)).toEqual([
      { id: "acme", name: "Acme", description: "support", promptCount: 2, caseCount: 4 },
      { id: "zeta", name: "Zeta", description: "", promptCount: 0, caseCount: 0 },
    ]);
    expect(await caseCountsBySource(db, "acme")).toEqual({ custom: 2, dataset: 2 });
    expect(await caseCountsBySource(db, "acme", { promptId: agent, status: "active" })).toEqual({ custom: 1, dataset: 2 });
    expect(await caseCountsBySource(db, "acme", { status: "paused" })).toEqual({});
    expect(await getSystem(db, "nope")).toBeNull();
    expect((await listPrompts(db, "acme")).map((p) => [p.name, p.revision?.number])).toEqual([
      ["agent", 1],
      ["router", 1],
    ]);
    expect((await getPrompt(db, agent))?.revision).toMatchObject({ number: 1, systemPrompt: "You help.", modelSettings: { temperature: 0 }, tools: [] });
  });

  it("refuses a duplicate system id or prompt name and stores nothing for it", async () => {
    const db = store.db();
    await createSystem(db, { id: "acme", name: "Acme" });
    await expect(createSystem(db, { id: "acme", name: "Again" })).rejects.toMatchObject({ code: "validation" });
    await expect(createSystem(db, { id: "Bad Id", name: "x" })).rejects.toMatchObject({ code: "validation" });
    await createPrompt(db, { systemId: "acme", name: "agent", systemPrompt: "A" });
    await expect(createPrompt(db, { systemId: "acme", name: "agent", systemPrompt: "B" })).rejects.toMatchObject({ code: "validation" });
    expect((await listPrompts(db, "acme")).map((p) => p.revision?.systemPrompt)).toEqual(["A"]);
  });
});
