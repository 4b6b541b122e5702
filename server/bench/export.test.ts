import { afterEach, describe, expect, it } from "vitest";
import Papa from "papaparse";
import { openMemoryDatabase } from "@/db/client";
import { addCases } from "@/db/queries/cases";
import { emptyCaseContent } from "@/lib/library/case-content";
import { GET } from "@/app/api/benches/[benchId]/export/route";
import { recordedRequest, recordedSuite, runBench } from "./test-support/recorded-bench";

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
});
