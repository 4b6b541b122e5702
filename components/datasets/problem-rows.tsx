"use client";

import { useState } from "react";
import type { ProblemRow, ProblemRowStatus } from "@/lib/datasets/preview";
import type { Corrections } from "@/lib/datasets/types";
import { LIMITS } from "@/lib/library/limits";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ProblemLine } from "./problem-line";
import { Textarea } from "@/components/ui/textarea";

const PAGE = 20;
const STATUS: Record<ProblemRowStatus, { label: string; tone: BadgeTone }> = {
  blocked: { label: "blocked", tone: "red" },
  fixed: { label: "corrected", tone: "green" },
  excluded: { label: "excluded", tone: "slate" },
  warning: { label: "warning", tone: "amber" },
};
const FILTERS = [
  { key: "all", label: "All" },
  { key: "blocked", label: "Blocked" },
  { key: "warning", label: "Warnings" },
  { key: "done", label: "Corrected or excluded" },
] as const;
type Filter = (typeof FILTERS)[number]["key"];

/**
 * "Rows with problems": each row with its row/line number, the column and message of every
 * problem, an editable cell for each column an error names (missing input or expected result,
 * unreadable history, repeated case ID) and an Exclude checkbox. A corrected row stays listed,
 * marked "corrected", so the list does not jump while typing.
 */
export function ProblemRows({
  rows,
  corrections,
  excludedRows,
  blockedByMapping,
  onEdit,
  onExclude,
  onExcludeBlocked,
}: {
  rows: ProblemRow[];
  /** The live corrections: the cells show them (the analysis may lag behind while typing). */
  corrections: Corrections;
  /** The live excluded rows (for the checkboxes). */
  excludedRows: number[];
  /** True while the mapping has no input or expected column (then every row is blocked). */
  blockedByMapping: boolean;
  onEdit: (row: number, column: string, value: string) => void;
  onExclude: (row: number, excluded: boolean) => void;
  onExcludeBlocked: () => void;
}) {
  const [filter, setFilter] = useState<Filter>("all");
  const [page, setPage] = useState(1);
  const counts = {
    all: rows.length,
    blocked: rows.filter((r) => r.status === "blocked").length,
    warning: rows.filter((r) => r.status === "warning").length,
    done: rows.filter((r) => r.status === "fixed" || r.status === "excluded").length,
  };
  const shown = rows.filter((r) => filter === "all" || (filter === "done" ? r.status === "fixed" || r.status === "excluded" : r.status === filter));
  const pageCount = Math.max(1, Math.ceil(shown.length / PAGE));
  const current = Math.min(page, pageCount);
  const slice = shown.slice((current - 1) * PAGE, current * PAGE);

  if (rows.length === 0) {
    return blockedByMapping ? (
      <p className="px-4 py-3 text-sm text-red-800">
        Every row is blocked until one column is the input and one the expected result. Fix the column roles above.
      </p>
    ) : (
      <p className="px-4 py-3 text-sm text-slate-600">No row has a problem with this mapping.</p>
    );
  }
  return (
    <div>
      <div className="flex flex-wrap items-center gap-2 border-b border-slate-100 px-4 py-2">
        <div role="group" aria-label="Show rows" className="flex flex-wrap gap-1">
          {FILTERS.map((f) => (
            <button
              key={f.key}
              type="button"
              aria-pressed={filter === f.key}
              onClick={() => {
                setFilter(f.key);
                setPage(1);
              }}
              className={`rounded-full px-2.5 py-0.5 text-xs ring-1 ring-inset ${filter === f.key ? "bg-indigo-600 text-white ring-indigo-600" : "bg-white text-slate-700 ring-slate-300 hover:bg-slate-50"}`}
            >
              {f.label} {counts[f.key]}
            </button>
          ))}
        </div>
        {counts.blocked > 0 ? (
          <Button size="sm" className="ml-auto" onClick={onExcludeBlocked}>
            Exclude the {counts.blocked} blocked row{counts.blocked === 1 ? "" : "s"}
          </Button>
        ) : null}
      </div>
      {slice.length === 0 ? <p className="px-4 py-3 text-sm text-slate-600">No row in this list.</p> : null}
      <ol aria-label="Rows with problems" className="divide-y divide-slate-100">
        {slice.map((r) => {
          const where = `Row ${r.row}${r.line !== undefined ? ` · line ${r.line}` : r.sheetRow !== undefined ? ` · sheet row ${r.sheetRow}` : ""}`;
          const dim = r.status === "fixed" || r.status === "excluded";
          return (
            <li key={r.row} aria-label={`Row ${r.row}`} className="flex flex-col gap-2 px-4 py-3">
              <div className="flex flex-wrap items-center gap-2">
                <span className="text-sm font-semibold text-slate-900">{where}</span>
                <Badge tone={STATUS[r.status].tone}>{STATUS[r.status].label}</Badge>
                <label className="ml-auto inline-flex items-center gap-1.5 text-xs text-slate-700">
                  <input
                    type="checkbox"
                    checked={excludedRows.includes(r.row)}
                    onChange={(e) => onExclude(r.row, e.target.checked)}
                    className="h-4 w-4 rounded border-slate-300"
                  />
                  Exclude row {r.row}
                </label>
              </div>
              <ul className={`flex flex-col gap-1 ${dim ? "opacity-60" : ""}`}>
                {r.problems.map((p, i) => (
                  <li key={i}>
                    <ProblemLine problem={p} showPlace={false} />
                  </li>
                ))}
              </ul>
              {r.status !== "excluded" && r.cells.length > 0 ? (
                <div className="grid gap-2 sm:grid-cols-2">
                  {r.cells.map((c) => {
                    const id = `fix-${r.row}-${c.column}`;
                    const value = corrections[r.row]?.[c.column] ?? c.original;
                    return (
                      <div key={c.column} className="flex flex-col gap-1">
                        <label htmlFor={id} className="text-xs font-medium text-slate-700">
                          Row {r.row}, {c.column}
                          {value !== c.original ? <span className="ml-1 font-normal text-emerald-700">(corrected)</span> : null}
                        </label>
                        <Textarea
                          id={id}
                          rows={2}
                          value={value}
                          maxLength={LIMITS.input}
                          onChange={(e) => onEdit(r.row, c.column, e.target.value)}
                          placeholder="Type the missing text"
                          className="w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm text-slate-900 shadow-xs focus:ring-2 focus:ring-indigo-300 focus:outline-none"
                        />
                      </div>
                    );
                  })}
                </div>
              ) : null}
            </li>
          );
        })}
      </ol>
      {pageCount > 1 ? (
        <nav aria-label="Problem pages" className="flex items-center justify-between border-t border-slate-200 px-4 py-2 text-xs text-slate-600">
          <span>
            Rows {(current - 1) * PAGE + 1}–{Math.min(shown.length, current * PAGE)} of {shown.length}
          </span>
          <span className="flex gap-1">
            <Button size="sm" variant="ghost" disabled={current <= 1} onClick={() => setPage(current - 1)}>
              ‹ Previous
            </Button>
            <Button size="sm" variant="ghost" disabled={current >= pageCount} onClick={() => setPage(current + 1)}>
              Next ›
            </Button>
          </span>
        </nav>
      ) : null}
    </div>
  );
}
