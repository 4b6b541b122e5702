/**
 * One page of the results matrix read alone (issue #16, speed: the results page's first view reads
 * the 50 rows it shows) equals that page of every row filtered `all` and sorted by position.
 */
import { describe, expect, it } from "vitest";
import { openMemoryDatabase } from "@/db/client";
import { createSyntheticSuite, launchSyntheticBench, lcg, runSyntheticTrials, type SyntheticBench } from "@/server/bench/test-support/synthetic-bench";
import { matrixPage, matrixRows, selectMatrix } from "./bench-matrix";

const shape: SyntheticBench = {
  systemId: "pages",
  cases: 120,
  repeats: 2,
  candidates: [
    { name: "base", fails: 0.1, latencyMs: 500, outputTokens: 100 },
    { name: "cand", fails: 0.2, latencyMs: 600, outputTokens: 120 },
  ],
  errorRate: 0.05,
  unscoredRate: 0.05,
};

describe("matrixPage", () => {
  it("gives the rows, total and page of selectMatrix over every row (filter all, by position), page numbers clamped", async () => {
    const db = openMemoryDatabase();
    const suite = await createSyntheticSuite(db, shape);
    const id = await launchSyntheticBench(db, shape, suite, "pages-1");
    await runSyntheticTrials(db, id, shape, lcg(3));
    const all = await matrixRows(db, id);
    expect(all).toHaveLength(120);
    for (const page of [1, 2, 3, 0, 99]) {
      const want = selectMatrix(all, { filter: "all", sort: "position", page, pageSize: 50, regressionCases: new Set() });
      const got = await matrixPage(db, id, page, 50);
      expect(got).toEqual(want);
    }
    expect((await matrixPage(db, id, 3, 50)).rows.map((r) => r.caseKey)).toEqual(all.slice(100).map((r) => r.caseKey));
  });
});
