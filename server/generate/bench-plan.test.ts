/**
 * Accepted proposals in a bench (issue 17): the generated case joins after the explicit cases and
 * within the case budget, and the generated criterion is in the pinned rubric.
 */
import { describe, expect, it } from "vitest";
import { content, makeTestDb } from "@/db/testing";
import { addCase } from "@/db/queries/cases";
import { criterionItem, scenarioItem, scriptedGenerator } from "@/lib/generate/test-support/scripted-generator";
import { prepareBench } from "@/server/bench/prepare";
import { generateForPrompt } from "./generate";
import { acceptProposal } from "./review";

const customer = [{ name: "customer", value: "Ada" }];

describe("accepted proposals in a bench plan", () => {
  it("generated cases come after explicit ones, the budget cuts them first, and the generated criterion is pinned", async () => {
    const { db, agentId } = await makeTestDb();
    const explicit: Awaited<ReturnType<typeof addCase>>[] = [];
    for (const i of [1, 2])
      explicit.push(
        await addCase(db, { systemId: "acme", promptId: agentId, source: "custom", content: content(`Explicit question ${i}`, "x", { variables: customer }) }),
      );
    const { model } = scriptedGenerator({
      criteria: JSON.stringify({ criteria: [criterionItem("Ask for the order number first")] }),
      concepts: JSON.stringify({ concepts: [], personas: [{ name: "Solo", description: "one" }] }),
      scenarios: JSON.stringify({ scenarios: [scenarioItem("My kettle never came", { variables: customer })] }),
    });
    const { proposals } = await generateForPrompt(db, { systemId: "acme", promptId: agentId, criteria: 1, scenarios: 1 }, { model, modelLabel: "mock:gen" });
    for (const p of proposals) await acceptProposal(db, p.id);
    const request = (budget: number | null) =>
      prepareBench(db, {
        systemId: "acme",
        promptId: agentId,
        candidates: [{ kind: "recorded", recordedName: "gold" }],
        baseline: { kind: "none" },
        selection: { kind: "all" },
        budget,
        repeats: 1,
        concurrency: 1,
        timeoutSeconds: 10,
        maxSteps: 1,
        judgeModelConfigId: null,
        launchKey: "launch-key-1",
      });
    const all = await request(null);
    expect(all.plan.manifest.map((m) => [m.group, m.included])).toEqual([
      ["explicit", true],
      ["explicit", true],
      ["generated", true],
    ]);
    expect(all.rubric.map((c) => c.rule)).toEqual(["Ask for the order number first"]);
    const cut = await request(2);
    expect(
      cut.plan.manifest.map((m) => [m.caseKey === explicit[0].caseKey || m.caseKey === explicit[1].caseKey ? "explicit" : "generated", m.included, m.reason]),
    ).toEqual([
      ["explicit", true, null],
      ["explicit", true, null],
      ["generated", false, expect.stringContaining("budget")],
    ]);
  });
});
