import { describe, expect, it } from "vitest";
import { openMemoryDatabase } from "../client";
import { listCases, getCase, findCaseByKey } from "../queries/cases";
import { listCriteria } from "../queries/criteria";
import { listPrompts, listSystems } from "../queries/systems";
import { seedDemoWorkspace } from "./demo";
import { runStaticCheck } from "@/lib/evaluators/registry";

describe("demo workspace seed", () => {
  it("imports the dataset files once and never again", async () => {
    const db = openMemoryDatabase();
    const first = await seedDemoWorkspace(db);
    expect(first).toMatchObject({ skipped: false, systems: 3, cases: 502, criteria: 6 });
    const again = await seedDemoWorkspace(db);
    expect(again.skipped).toBe(true);
    const systems = await listSystems(db);
    expect(systems.map((s) => [s.id, s.promptCount, s.caseCount])).toEqual([
      ["customer-support", 2, 162],
      ["grade-school-math", 1, 200],
      ["tool-use", 1, 140],
    ]);
    expect((await listPrompts(db, "customer-support")).map((p) => [p.name, p.revision?.tools.map((t) => t.name)])).toEqual([
      ["intent-router", []],
      ["support-agent", ["lookup_policy", "get_order"]],
    ]);
  });

  it("never seeds over user data", async () => {
    const db = openMemoryDatabase();
    const { createSystem } = await import("../queries/systems");
    await createSystem(db, { id: "mine", name: "My system" });
    expect((await seedDemoWorkspace(db)).skipped).toBe(true);
    expect((await listSystems(db)).map((s) => s.id)).toEqual(["mine"]);
  });

  it("keeps recorded GSM8K solutions with each case, and the gsm8k check reproduces the source's is_correct counts", async () => {
    const db = openMemoryDatabase();
    await seedDemoWorkspace(db);
    const page = await listCases(db, { systemId: "grade-school-math", pageSize: 500 });
    expect(page.total).toBe(200);
    const correct: Record<string, number> = {};
    let agreeWithSource = 0;
    for (const row of page.rows) {
      const c = (await getCase(db, row.id))!.content;
      for (const [candidate, output] of Object.entries(c.recordedOutputs)) {
        const r = runStaticCheck(c.evaluators[0], { output, context: { expected: c.expected } });
        if (r.verdict === "passed") correct[candidate] = (correct[candidate] ?? 0) + 1;
        const flag = c.extra[`${candidate.replace(/-/g, "_")}_is_correct`];
        if (flag !== undefined && (flag === "true") === (r.verdict === "passed")) agreeWithSource++;
      }
    }
    expect(correct).toEqual({ "model-6b-finetuning": 45, "model-6b-verification": 75, "model-175b-finetuning": 65, "model-175b-verification": 110 });
    expect(agreeWithSource).toBe(800);
  });

  it("declares only valid evaluators on every demo case (a seeded check never ends as a configuration error)", async () => {
    const { validateEvaluatorSpecs } = await import("@/lib/evaluators/validate");
    const db = openMemoryDatabase();
    await seedDemoWorkspace(db);
    const bad: string[] = [];
    for (const sys of await listSystems(db)) {
      const page = await listCases(db, { systemId: sys.id, pageSize: 500 });
      for (const row of page.rows) {
        const c = (await getCase(db, row.id))!.content;
        for (const p of validateEvaluatorSpecs(c.evaluators, { expected: c.expected })) bad.push(`${row.caseKey}: ${p.field}: ${p.message}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("keeps BFCL schemas, accepted arguments and recorded calls", async () => {
    const db = openMemoryDatabase();
    await seedDemoWorkspace(db);
    const hit = (await findCaseByKey(db, "simple_python_0"))!;
    const c = (await getCase(db, hit.id))!.content;
    expect(c.input).toBe("Find the area of a triangle with a base of 10 units and height of 5 units.");
    expect(c.toolDefinitions?.[0]).toMatchObject({ name: "calculate_triangle_area", inputSchema: { type: "object", required: ["base", "height"] } });
    expect(c.recordedToolCalls?.["airev-agent-0.8b"]).toEqual([{ toolName: "calculate_triangle_area", input: { base: 10, height: 5, unit: "units" } }]);
    expect(c.evaluators[0]).toMatchObject({ kind: "tool_call_syntax" });
    const factorial = (await getCase(db, (await findCaseByKey(db, "simple_python_1"))!.id))!.content;
    expect(factorial.toolDefinitions?.[0].name).toBe("math_factorial");
    expect(JSON.stringify(factorial.evaluators)).toContain('"toolName":"math_factorial"');
  });

  it("seeds criteria per prompt, generated ones included", async () => {
    const db = openMemoryDatabase();
    await seedDemoWorkspace(db);
    const prompts = await listPrompts(db, "customer-support");
    const agent = prompts.find((p) => p.name === "support-agent")!;
    const router = prompts.find((p) => p.name === "intent-router")!;
    expect((await listCriteria(db, agent.id)).map((c) => [c.rule, c.origin])).toEqual([
      ["States the return window in days", "custom"],
      ["Looks up the order before deciding a refund", "custom"],
      ["Does not invent policy details", "generated"],
      ["Keeps the reply under 80 words", "generated"],
    ]);
    expect((await listCriteria(db, router.id)).every((c) => c.origin === "custom")).toBe(true);
  });
});
