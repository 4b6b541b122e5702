import { afterEach, describe, expect, it } from "vitest";
import Papa from "papaparse";
import { openMemoryDatabase } from "@/db/client";
import { addCases } from "@/db/queries/cases";
import { emptyCaseContent } from "@/lib/library/case-content";
import { GET } from "@/app/api/benches/[benchId]/export/route";
import { recordedRequest, recordedSuite, runBench, waitEnded } from "./test-support/recorded-bench";
import { startRerun } from "./reruns";
import { addRerunTrials } from "@/db/queries/bench-reruns";
import { confirmTrials } from "@/lib/bench/rerun/select";
import { startBenchWorker } from "../worker";

afterEach(() => {
  delete (globalThis as { benchworkDb?: unknown }).benchworkDb;
});

describe("bench export", () => {
  it("holds each trial's input, expected result, check reasons and tool calls, formula-safe in CSV", async () => {
    const db = openMemoryDatabase();
    (globalThis as { benchworkDb?: unknown }).benchworkDb = db; // the connection getDb() hands the route
    const promptId = await recordedSuite(db, [{ key: "plain", expected: "30 days", answers: { col: "60 days" } }]);
    await addCases(db, [
      {
        systemId: "rec",
        promptId,
        caseKey: "tooled",
        source: "custom",
        content: {
          ...emptyCaseContent(),
          input: '=HYPERLINK("http://evil.example","click")',
          expected: "looks the order up",
          recordedOutputs: { col: "Looking it up." },
          recordedToolCalls: { col: [{ toolName: "get_order", input: { orderId: "order_123" } }] },
          evaluators: [{ kind: "non_empty" }],
        },
      },
    ]);
    const bench = await runBench(db, recordedRequest(promptId, ["col"]));
    const call = (format: string) =>
      GET(new Request(`http://x/api/benches/${bench.id}/export?format=${format}`), { params: Promise.resolve({ benchId: String(bench.id) }) });

    const json = await (await call("json")).json();
    const byCase = Object.fromEntries(json.trials.map((t: { caseId: string }) => [t.caseId, t]));
    expect(byCase.plain).toMatchObject({ input: "question plain", expected: "30 days", toolCalls: [] });
    expect(byCase.plain.checks[0]).toMatchObject({ verdict: "failed", message: expect.stringMatching(/\S/) });
    expect(byCase.tooled).toMatchObject({ input: '=HYPERLINK("http://evil.example","click")', expected: "looks the order up" });
    expect(byCase.tooled.toolCalls).toEqual([expect.objectContaining({ toolName: "get_order", input: { orderId: "order_123" } })]);

    const text = new TextDecoder().decode(new Uint8Array(await (await call("csv")).arrayBuffer()));
    const [header, ...rows] = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { skipEmptyLines: true }).data;
    const col = (name: string) => header.indexOf(name);
    for (const name of ["input", "expected", "toolCalls", "checks"]) expect(col(name), name).toBeGreaterThanOrEqual(0);
    const plain = rows.find((r) => r[col("caseId")] === "plain")!;
    const tooled = rows.find((r) => r[col("caseId")] === "tooled")!;
    expect(plain[col("expected")]).toBe("30 days");
    // The reason of each check, not only its verdict.
    expect(plain[col("checks")]).toBe(`failed: ${byCase.plain.checks[0].label} — ${byCase.plain.checks[0].message}`);
    // A cell a spreadsheet would run as a formula is escaped, as the other columns are.
    expect(tooled[col("input")]).toBe(`'=HYPERLINK("http://evil.example","click")`);
    expect(JSON.parse(tooled[col("toolCalls")])).toEqual([expect.objectContaining({ toolName: "get_order", input: { orderId: "order_123" } })]);
  });

  it("says which trials a rerun added (rerun: confirm or error, empty for planned ones) and which trial each error rerun reruns (rerunOf)", async () => {
    const db = openMemoryDatabase();
    (globalThis as { benchworkDb?: unknown }).benchworkDb = db;
    // `cand` answers q1 wrong (a regression); its q2 trial errors (a provider outage, written here).
    const promptId = await recordedSuite(
      db,
      ["q1", "q2"].map((key) => ({ key, expected: "right", answers: { base: "right", cand: key === "q1" ? "wrong" : "right" } })),
    );
    const bench = await runBench(db, recordedRequest(promptId, ["base", "cand"]));
    const cand = bench.candidates[1];
    const errored = db.$client
      .prepare("SELECT t.id FROM trials t JOIN bench_cases bc ON bc.id = t.bench_case_id WHERE t.bench_id = ? AND t.candidate_id = ? AND bc.case_key = 'q2'")
      .get(bench.id, cand.id) as { id: number };
    db.$client.prepare("UPDATE trials SET status = 'error', error = 'provider outage', passed_checks = 0 WHERE id = ?").run(errored.id);
    const rerun = async (kind: "confirm" | "errors") => {
      if (kind === "errors") await startRerun(db, bench.id, kind);
      else {
        // Recorded answers on a code check are deterministic replays, for which no confirm round is
        // offered: its trials are added here as a round on a judged check adds them (2 more per side).
        const q1 = db.$client.prepare("SELECT id FROM bench_cases WHERE bench_id = ? AND case_key = 'q1'").get(bench.id) as { id: number };
        const suspected = [{ candidateId: cand.id, benchCaseId: q1.id, against: "baseline" as const }];
        const trials = confirmTrials({ repeats: 1, baselineCandidateId: bench.candidates[0].id, suspected, existing: () => ({ count: 1, maxRepeat: 1 }) });
        await addRerunTrials(db, bench.id, trials, null, "confirm suspected regressions");
      }
      const worker = startBenchWorker(db, { env: {}, pollMs: 20 });
      try {
        expect((await waitEnded(db, bench.id)).status).toBe("finished");
      } finally {
        await worker.stop(1000);
      }
    };
    await rerun("errors");
    await rerun("confirm");
    const call = (format: string) =>
      GET(new Request(`http://x/api/benches/${bench.id}/export?format=${format}`), { params: Promise.resolve({ benchId: String(bench.id) }) });

    type Row = { trial: number; candidate: string; caseId: string; repeat: number; status: string; rerun: string | null; rerunOf: number | null };
    const json = (await (await call("json")).json()) as { trials: Row[] };
    const brief = (t: Row) => [t.caseId, t.candidate.split(" ")[0], t.repeat, t.status, t.rerun, t.rerunOf];
    // Planned trials: no rerun; the error rerun points at the errored trial; the confirm round adds 2 more per side of q1 (3 in all).
    expect(json.trials.map(brief)).toEqual([
      ["q1", "base", 1, "done", null, null],
      ["q1", "base", 2, "done", "confirm", null],
      ["q1", "base", 3, "done", "confirm", null],
      ["q1", "cand", 1, "done", null, null],
      ["q1", "cand", 2, "done", "confirm", null],
      ["q1", "cand", 3, "done", "confirm", null],
      ["q2", "base", 1, "done", null, null],
      ["q2", "cand", 1, "error", null, null],
      ["q2", "cand", 2, "done", "error", errored.id],
    ]);

    const text = new TextDecoder().decode(new Uint8Array(await (await call("csv")).arrayBuffer()));
    const [header, ...rows] = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { skipEmptyLines: true }).data;
    const col = (name: string) => header.indexOf(name);
    expect(rows.map((r) => [r[col("caseId")], r[col("repeat")], r[col("rerun")], r[col("rerunOf")]])).toEqual(
      json.trials.map((t) => [t.caseId, String(t.repeat), t.rerun ?? "", t.rerunOf === null ? "" : String(t.rerunOf)]),
    );
    expect(rows.filter((r) => r[col("rerun")] === "error").map((r) => r[col("rerunOf")])).toEqual([String(errored.id)]);
  });
});
