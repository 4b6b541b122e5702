import { describe, expect, it } from "vitest";
import { getBench } from "@/db/queries/benches";
import { addCase } from "@/db/queries/cases";
import { content, makeTestDb } from "@/db/testing";
import type { Db } from "@/db/client";
import { savePromptDefaultChecks } from "../prompt-checks";
import { launchFromRequest, prepareBench } from "./prepare";
import { startBenchWorker } from "../worker";
import { LibraryError } from "@/lib/library/errors";

function request(promptId: number, key: string): Parameters<typeof launchFromRequest>[1] {
  return {
    systemId: "acme",
    promptId,
    candidates: [{ kind: "recorded", recordedName: "model-a" }],
    baseline: { kind: "none" },
    selection: { kind: "all" },
    budget: null,
    repeats: 1,
    concurrency: 2,
    timeoutSeconds: 30,
    maxSteps: 5,
    judgeModelConfigId: null,
    launchKey: key,
  };
}

async function runToEnd(db: Db, id: number) {
  let finalized!: () => void;
  const ended = new Promise<void>((r) => (finalized = r));
  const worker = startBenchWorker(db, { env: {}, pollMs: 20, onBenchFinished: (b) => b === id && finalized() });
  await ended;
  await worker.stop(1000);
  return (await getBench(db, id))!;
}

describe("a prompt's default checks (issue 15)", () => {
  it("the Plan warns about cases without any check; with a default check they inherit it and the bench scores them", async () => {
    const { db, routerId } = await makeTestDb();
    const rec = (answer: string) => ({ recordedOutputs: { "model-a": answer } });
    await addCase(db, {
      systemId: "acme",
      promptId: routerId,
      caseKey: "cap-01",
      source: "dataset",
      content: content("Capital of France?", "Paris", rec("Paris")),
    });
    await addCase(db, {
      systemId: "acme",
      promptId: routerId,
      caseKey: "cap-02",
      source: "dataset",
      content: content("Capital of Spain?", "Madrid", rec("madrid")),
    });
    // Its own check wins over the default: contains "Rom" passes although exact would fail.
    await addCase(db, {
      systemId: "acme",
      promptId: routerId,
      caseKey: "cap-03",
      source: "custom",
      content: content("Capital of Italy?", "Rome", { ...rec("Rome!"), evaluators: [{ kind: "contains", expected: "Rom" }] }),
    });

    const before = await prepareBench(db, request(routerId, "k0"));
    expect(before.plan.unchecked).toEqual({ count: 2, caseKeys: ["cap-01", "cap-02"], criteriaUnjudged: false });

    await savePromptDefaultChecks(db, "acme", routerId, [{ kind: "exact" }]);
    const { id, plan } = await launchFromRequest(db, request(routerId, "k1"));
    expect(plan.unchecked).toBeUndefined();
    // Pinned: a later change of the defaults does not change what this bench scores.
    await savePromptDefaultChecks(db, "acme", routerId, []);
    const bench = await runToEnd(db, id);
    expect(bench.settings.defaultChecks).toEqual([{ kind: "exact" }]);
    const rows = db.$client
      .prepare(
        "SELECT bc.case_key AS caseKey, t.passed_checks AS passed, t.failed_checks AS failed, t.checks FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id ORDER BY bc.case_key",
      )
      .all() as { caseKey: string; passed: number; failed: number; checks: string }[];
    expect(rows.map((r) => [r.caseKey, r.passed, r.failed, (JSON.parse(r.checks) as { key: string }[]).map((c) => c.key)])).toEqual([
      ["cap-01", 1, 0, ["p0:exact"]],
      ["cap-02", 0, 1, ["p0:exact"]],
      ["cap-03", 1, 0, ["e0:contains"]],
    ]);
  }, 30_000);

  it("refuses invalid default checks, naming the check, and stores nothing", async () => {
    const { db, routerId } = await makeTestDb();
    await expect(savePromptDefaultChecks(db, "acme", routerId, [{ kind: "exact" }, { kind: "regex", pattern: "(" }])).rejects.toThrow(LibraryError);
    await expect(savePromptDefaultChecks(db, "acme", routerId, [{ kind: "regex", pattern: "(" }])).rejects.toThrow(/Check 1/);
    const { getPromptDefaultChecks } = await import("@/db/queries/prompt-checks");
    expect(await getPromptDefaultChecks(db, routerId)).toEqual([]);
    await expect(savePromptDefaultChecks(db, "nope", routerId, [])).rejects.toThrow(/does not exist in system "nope"/);
  });
});
