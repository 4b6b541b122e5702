/**
 * `benchwork bench run` on PostgreSQL (issue 20): with BENCHWORK_DATABASE_URL set the command runs
 * the bench with a job worker on the pg-boss queue and reports it like on SQLite.
 */
import { expect, it } from "vitest";
import { readFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { main } from "../main";
import { captureIo, gsm8kBenchRun } from "../testing";
import { closeStore, openPgStore } from "@/db/pg/store";
import { describePg } from "@/db/pg/test-support/database";
import { useDemoPgStore } from "../test-support/demo-pg-store";
import { listBenches } from "@/db/queries/benches";

describePg("benchwork bench run on PostgreSQL", () => {
  const databaseUrl = useDemoPgStore();

  it("runs the recorded GSM8K bench to its end with the job worker and writes the same report as on SQLite", async () => {
    const io = captureIo();
    const out = path.join(mkdtempSync(path.join(tmpdir(), "benchwork-bench-pg-")), "gsm8k.json");
    const code = await main([...gsm8kBenchRun("model-6b-finetuning", "model-175b-verification"), "--json-output", out], io);
    expect(io.stderr).toEqual([]);
    expect(code).toBe(1);
    const r = JSON.parse(readFileSync(out, "utf8"));
    expect(r.status).toBe("finished");
    expect(r.manifest).toMatchObject({ included: 200, excluded: 0 });
    expect(r.candidates.map((c: { label: string; passed: number; scored: number; failed: number }) => [c.label, c.passed, c.scored, c.failed])).toEqual([
      ["model-6b-finetuning", 45, 200, 155],
      ["model-175b-verification", 110, 200, 90],
    ]);
    expect(r.recommendation.recommended).toBe("model-6b-finetuning");
    const db = openPgStore(databaseUrl(), 1);
    try {
      expect((await listBenches(db, "grade-school-math"))[0]).toMatchObject({ id: r.benchId, status: "finished" });
    } finally {
      await closeStore(db);
    }
  }, 120_000);
});
