import { describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { getBench, getBenchProgress } from "@/db/queries/benches";
import { getTrial } from "@/db/queries/bench-matrix";
import { addCase, removeCase } from "@/db/queries/cases";
import { content, makeTestDb } from "@/db/testing";
import type { CheckRecord } from "@/lib/bench/types";
import { startBenchWorker } from "../worker";
import { launchFromRequest } from "./prepare";

type Request = Parameters<typeof launchFromRequest>[1];

/** A bench of `promptId` over every case with the recorded candidate `m1`. */
function request(promptId: number, launchKey: string): Request {
  return {
    systemId: "acme",
    promptId,
    candidates: [{ kind: "recorded", recordedName: "m1" }],
    baseline: { kind: "none" },
    selection: { kind: "all" },
    budget: null,
    repeats: 1,
    concurrency: 2,
    timeoutSeconds: 30,
    maxSteps: 5,
    judgeModelConfigId: null,
    launchKey,
  };
}

async function runToEnd(db: Db, id: number): Promise<void> {
  const worker = startBenchWorker(db, { env: {}, pollMs: 20 });
  try {
    for (const end = Date.now() + 30_000; ;) {
      const b = await getBench(db, id);
      if (b && (b.status === "finished" || b.status === "cancelled")) return;
      if (Date.now() > end) throw new Error(`bench ${id} did not finish: ${JSON.stringify(await getBenchProgress(db, id))}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await worker.stop(1000);
  }
}

async function trialsOfCase(db: Db, benchId: number, caseId: number) {
  const ids = db.$client
    .prepare("SELECT t.id FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id WHERE t.bench_id = ? AND bc.case_id = ? ORDER BY t.id")
    .all(benchId, caseId) as { id: number }[];
  return Promise.all(ids.map(async ({ id }) => (await getTrial(db, id))!));
}

describe("Remove erases a case's saved details from the trials that used it", () => {
  it("check messages and details no longer quote the expected answer; verdicts, scores and counts stay; queued trials are skipped; automatic retained copies go too", async () => {
    const { db, routerId } = await makeTestDb();
    const secret = await addCase(db, {
      systemId: "acme",
      promptId: routerId,
      caseKey: "secret-sum",
      source: "custom",
      content: content("What is 999990 + 9? My card is on file.", "999999", { recordedOutputs: { m1: "#### 12" }, evaluators: [{ kind: "gsm8k" }] }),
    });
    const other = await addCase(db, {
      systemId: "acme",
      promptId: routerId,
      caseKey: "other-sum",
      source: "custom",
      content: content("What is 2 + 2?", "4", { recordedOutputs: { m1: "#### 5" }, evaluators: [{ kind: "gsm8k" }] }),
    });
    const done = await launchFromRequest(db, request(routerId, "remove-erases-1"));
    await runToEnd(db, done.id);
    const before = await trialsOfCase(db, done.id, secret.id);
    expect(before).toHaveLength(1);
    const checksBefore = JSON.parse(String(before[0].checks)) as CheckRecord[];
    expect(checksBefore[0]).toMatchObject({ verdict: "failed", score: 0 });
    expect(checksBefore[0].message).toContain("but the expected answer is 999999");
    expect(String(before[0].output)).toBe("#### 12");

    // The failure made an automatic regression copy (source retained) holding the same content.
    const copyOf = (caseId: number) =>
      db.$client
        .prepare("SELECT id, case_key AS caseKey, removed_at AS removedAt FROM cases WHERE source = 'retained' AND json_extract(origin, '$.fromCaseId') = ?")
        .get(caseId) as { id: number; caseKey: string; removedAt: number | null } | undefined;
    const copy = copyOf(secret.id)!;
    expect(copy.removedAt).toBeNull();
    const otherCopy = copyOf(other.id)!;
    db.$client.prepare("UPDATE cases SET user_corrected = 1 WHERE id = ?").run(otherCopy.id);

    // A second bench still waiting to run when the case is removed.
    const waiting = await launchFromRequest(db, request(routerId, "remove-erases-2"));

    expect(await removeCase(db, secret.id)).toEqual({ caseKey: "secret-sum", alsoRemoved: [copy.caseKey] });
    // The copy goes with it, erased.
    expect(copyOf(secret.id)!.removedAt).not.toBeNull();
    const copyRevisions = db.$client.prepare("SELECT input, expected, details, erased_at AS erasedAt FROM case_revisions WHERE case_id = ?").all(copy.id);
    expect(copyRevisions).toEqual([{ input: "", expected: "", details: "{}", erasedAt: expect.any(Number) }]);

    const after = (await trialsOfCase(db, done.id, secret.id))[0];
    const text = `${after.checks} ${after.record} ${after.output}`;
    expect(text).not.toContain("999999");
    expect(text).not.toContain("999990");
    expect(text).not.toContain("#### 12");
    const checksAfter = JSON.parse(String(after.checks)) as CheckRecord[];
    expect(checksAfter).toHaveLength(checksBefore.length);
    expect(checksAfter[0]).toMatchObject({
      key: checksBefore[0].key,
      kind: "gsm8k",
      label: checksBefore[0].label,
      verdict: "failed",
      score: 0,
      message: "Erased: the case was removed.",
    });
    expect(checksAfter[0].details).toBeUndefined();
    expect(after).toMatchObject({ status: "done", failed_checks: 1, passed_checks: 0 });
    expect(after.erasedAt).not.toBeNull();

    // The other case's trial keeps everything.
    const kept = (await trialsOfCase(db, done.id, other.id))[0];
    expect(String(kept.checks)).toContain("but the expected answer is 4");
    expect(kept.output).toBe("#### 5");

    // The waiting bench does not run the removed case (its content is gone): skipped, with the reason.
    const skipped = (await trialsOfCase(db, waiting.id, secret.id))[0];
    expect(skipped).toMatchObject({ status: "skipped", error: "the case was removed before this trial ran" });
    // The other case's corrected copy runs in its place (a correction replaces its original) and still waits.
    expect((await trialsOfCase(db, waiting.id, otherCopy.id))[0]).toMatchObject({ status: "queued" });

    // A copy the user corrected is theirs: removing its original leaves it.
    expect((await removeCase(db, other.id)).alsoRemoved).toEqual([]);
    expect(copyOf(other.id)!.removedAt).toBeNull();
  });
});
