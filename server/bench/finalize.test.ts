import { describe, expect, it } from "vitest";
import { openMemoryDatabase } from "@/db/client";
import { getBench, getBenchProgress } from "@/db/queries/benches";
import { listCases } from "@/db/queries/cases";
import { finalizeBench } from "@/db/queries/bench-finalize";
import { launchFromRequest } from "./prepare";
import { recordedRequest, recordedSuite } from "./test-support/recorded-bench";
import { startBenchWorker } from "../worker";

describe("finalizing a bench", () => {
  it("stores the results and the retained cases in one transaction: a failure between them loses neither", async () => {
    const db = openMemoryDatabase();
    const promptId = await recordedSuite(
      db,
      ["q1", "q2", "q3"].map((key) => ({ key, expected: "right", answers: { bad: "wrong" } })),
    );
    // The retention's write fails (as a crash between the two writes would interrupt it).
    db.$client.exec("CREATE TEMP TRIGGER no_retained BEFORE INSERT ON cases WHEN NEW.source = 'retained' BEGIN SELECT RAISE(ABORT, 'disk full'); END");
    const { id } = await launchFromRequest(db, recordedRequest(promptId, ["bad"]));
    // Run every trial (the worker's own finalizing fails the same way meanwhile, and is retried).
    const worker = startBenchWorker(db, { env: {}, pollMs: 20 });
    for (let i = 0; i < 500 && (await getBenchProgress(db, id))!.done < 3; i++) await new Promise((r) => setTimeout(r, 20));
    await worker.stop(1000);
    expect((await getBenchProgress(db, id))!.done).toBe(3);

    await expect(finalizeBench(db, id, Date.now())).rejects.toThrow(/disk full/);
    // Nothing half-written: the bench is not finished without its retained cases.
    const after = (await getBench(db, id))!;
    expect(after.status).toBe("running");
    expect(after.summary).toBeNull();
    expect((await listCases(db, { systemId: "rec", source: "retained" })).total).toBe(0);

    db.$client.exec("DROP TRIGGER no_retained");
    expect(await finalizeBench(db, id, Date.now())).toBe("finished");
    const done = (await getBench(db, id))!;
    expect(done.status).toBe("finished");
    expect(done.summary!.retained).toBe(3);
    expect((await listCases(db, { systemId: "rec", source: "retained" })).total).toBe(3);
  });
});
