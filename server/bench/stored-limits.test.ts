/**
 * What a bench stores per trial is capped (issue "Seal the server and the sandboxes", item 10): a
 * custom evaluator that throws a 5 MB message stored 5 MB per trial. Runs a real bench (recorded
 * candidate, custom evaluators in the sandbox, the worker and the SQLite store).
 */
import { describe, expect, it } from "vitest";
import { openMemoryDatabase, type Db } from "@/db/client";
import { addCases } from "@/db/queries/cases";
import { getBench, getBenchProgress } from "@/db/queries/benches";
import { createPrompt, createSystem } from "@/db/queries/systems";
import { STORED_LIMITS } from "@/lib/bench/stored-limits";
import type { CheckRecord } from "@/lib/bench/types";
import { emptyCaseContent } from "@/lib/library/case-content";
import { launchFromRequest } from "./prepare";
import { startBenchWorker } from "../worker";

const FIVE_MB = 5 * 1024 * 1024;

async function waitEnded(db: Db, id: number, ms = 40_000) {
  const end = Date.now() + ms;
  for (;;) {
    const b = await getBench(db, id);
    if (b && b.status !== "queued" && b.status !== "running") return b;
    if (Date.now() > end) throw new Error(`bench ${id} did not end: ${JSON.stringify(await getBenchProgress(db, id))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("a trial's stored size", () => {
  it("caps a 5 MB evaluator message, long details and a long output, and says what was cut", async () => {
    const db = openMemoryDatabase();
    await createSystem(db, { id: "s", name: "S" });
    const promptId = await createPrompt(db, { systemId: "s", name: "p", systemPrompt: "", tools: [] });
    const output = "answer ".repeat(50_000); // 350,000 characters
    await addCases(db, [
      {
        systemId: "s",
        promptId,
        caseKey: "big",
        source: "custom",
        content: {
          ...emptyCaseContent(),
          input: "q",
          expected: "answer",
          recordedOutputs: { rec: output },
          evaluators: [
            { kind: "custom", code: `function evaluate() { throw new Error("x".repeat(${FIVE_MB})) }` },
            {
              kind: "custom",
              code: `function evaluate() { for (let i = 0; i < 50; i++) console.log("y".repeat(10000)); return { passed: true, details: { note: "z".repeat(60000) } } }`,
            },
            { kind: "contains" },
          ],
        },
      },
    ]);
    const { id } = await launchFromRequest(db, {
      systemId: "s",
      promptId,
      candidates: [{ kind: "recorded", recordedName: "rec" }],
      baseline: { kind: "none" },
      selection: { kind: "all" },
      budget: null,
      repeats: 1,
      concurrency: 1,
      timeoutSeconds: 30,
      maxSteps: 1,
      judgeModelConfigId: null,
      launchKey: "stored-limits",
    });
    const worker = startBenchWorker(db, { env: {}, pollMs: 20 });
    await waitEnded(db, id);
    await worker.stop(1000);

    const row = db.$client
      .prepare("SELECT status, output, checks, length(checks) AS checksLength, length(output) AS outputLength FROM trials WHERE bench_id = ?")
      .get(id) as {
      status: string;
      output: string;
      checks: string;
      checksLength: number;
      outputLength: number;
    };
    expect(row.status).toBe("done");
    const checks = JSON.parse(row.checks) as CheckRecord[];
    expect(checks.map((c) => [c.kind, c.verdict])).toEqual([
      ["custom", "error"],
      ["custom", "passed"],
      ["contains", "passed"], // scored on the whole output, before it was cut for storage
    ]);
    const thrown = checks[0].message;
    // (Lengths and ends first: a failing assertion must not print megabytes.)
    expect(thrown.length).toBeLessThan(STORED_LIMITS.message + 50);
    expect(thrown.slice(0, 60)).toBe("evaluator infrastructure failure: evaluate threw Error: xxxx");
    expect(thrown.slice(-40)).toMatch(/… \[truncated, 5,242,\d{3} characters\]$/);
    // Every check, its details included, stays small: the row is not megabytes.
    expect(row.checksLength).toBeLessThan(3 * STORED_LIMITS.details);
    expect(JSON.stringify(checks[1].details).length).toBeLessThanOrEqual(STORED_LIMITS.details);
    expect(JSON.stringify(checks[1].details)).toContain("[truncated, ");
    expect(row.outputLength).toBeLessThan(STORED_LIMITS.output + 50);
    expect(row.output === `${output.slice(0, STORED_LIMITS.output)}… [truncated, 350,000 characters]`).toBe(true);
  });
});
