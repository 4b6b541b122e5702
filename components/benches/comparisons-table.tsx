"use client";

import { useState } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { sortComparisonRows, type ComparisonRow, type ComparisonSortKey } from "@/lib/bench/evidence/comparison-rows";

const VERDICT_TONE: Record<ComparisonRow["verdict"], BadgeTone> = { better: "green", worse: "red", inconclusive: "slate" };
const VERDICT_TITLE: Record<ComparisonRow["verdict"], string> = {
  better: "The 95 % interval lies above 0 and the test gives p < 0.05",
  worse: "The 95 % interval lies below 0 and the test gives p < 0.05",
  inconclusive: "The interval spans 0 or the test does not reach p < 0.05: no difference this bench can tell",
};

const COLUMNS: { key: ComparisonSortKey | null; label: string; title?: string }[] = [
  { key: "candidate", label: "Candidate" },
  { key: null, label: "Against" },
  { key: "verdict", label: "Verdict" },
  { key: "delta", label: "Δ pass rate · 95 % CI", title: "Candidate minus the other side, in points, over the cases both scored" },
  { key: "p", label: "p · test" },
  { key: "n", label: "Paired cases" },
  {
    key: "mde",
    label: "Detectable",
    title: "The smallest true difference this comparison detects with 80 % power at α 0.05, from its paired cases and how often they disagree",
  },
];

/**
 * Every paired comparison of the bench (each candidate against the baseline and against the last
 * bench) as a compact table, sortable by its column headers (client-side: the rows are few).
 * @param rows from `comparisonRows` (the stored evidence); nothing is rendered when empty
 */
export function ComparisonsTable({ rows }: { rows: readonly ComparisonRow[] }) {
  const [sort, setSort] = useState<{ by: ComparisonSortKey; dir: "asc" | "desc" } | null>(null);
  if (rows.length === 0) return null;
  const shown = sort ? sortComparisonRows(rows, sort.by, sort.dir) : rows;
  const toggle = (by: ComparisonSortKey) => setSort((s) => (s?.by === by ? { by, dir: s.dir === "asc" ? "desc" : "asc" } : { by, dir: "asc" }));
  return (
    <section aria-label="Comparisons" className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <h2 className="border-b border-slate-200 px-4 py-2.5 text-sm font-semibold">Comparisons</h2>
      <table className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600">
          <tr>
            {COLUMNS.map((c) => (
              <th
                key={c.label}
                className="px-3 py-2 font-medium"
                title={c.title}
                aria-sort={c.key ? (sort?.by === c.key ? (sort.dir === "asc" ? "ascending" : "descending") : "none") : undefined}
              >
                {c.key ? (
                  <button type="button" className="inline-flex items-center gap-1 hover:text-slate-900" onClick={() => toggle(c.key!)}>
                    {c.label}
                    <span aria-hidden="true">{sort?.by === c.key ? (sort.dir === "asc" ? "▲" : "▼") : "↕"}</span>
                  </button>
                ) : (
                  c.label
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.map((r) => (
            <tr key={r.key} className="border-b border-slate-100 last:border-0" data-testid="comparison-row">
              <td className="px-3 py-1.5 font-medium">{r.candidate}</td>
              <td className="px-3 py-1.5 text-xs text-slate-700">{r.against}</td>
              <td className="px-3 py-1.5">
                <Badge tone={VERDICT_TONE[r.verdict]} title={VERDICT_TITLE[r.verdict]}>
                  {r.verdict}
                </Badge>
              </td>
              <td className="px-3 py-1.5 tabular-nums">
                {r.delta} <span className="text-xs text-slate-600">{r.ci === "no interval" ? "" : `(${r.ci})`}</span>
              </td>
              <td className="px-3 py-1.5 text-xs tabular-nums">{r.test}</td>
              <td className="px-3 py-1.5 tabular-nums">{r.n}</td>
              <td className="px-3 py-1.5 tabular-nums">{r.detectable}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
