import Link from "next/link";
import type { ColumnMapping } from "@/lib/import/mapping";
import { assignmentLabel } from "@/lib/datasets/labels";
import { Badge } from "@/components/ui/badge";
import { Pager } from "@/components/library/pager";

/** Filters of the rows table. */
export const ROW_FILTERS = ["all", "blocked", "excluded", "corrected"] as const;
/** One of {@link ROW_FILTERS}. */
export type RowFilter = (typeof ROW_FILTERS)[number];

/**
 * A version's stored rows (corrected and redacted), one page at a time, with each row's status
 * (blocked, excluded, corrected) and a filter by status. Paging and filtering are links.
 */
export function VersionRows({
  columns,
  mapping,
  records,
  rowNumbers,
  status,
  filter,
  counts,
  page,
  pageSize,
  total,
  hrefFor,
}: {
  columns: string[];
  mapping: ColumnMapping;
  /** The rows of this page. */
  records: Record<string, string>[];
  /** Their data-row numbers. */
  rowNumbers: number[];
  status: Record<number, ("blocked" | "excluded" | "corrected")[]>;
  filter: RowFilter;
  counts: Record<RowFilter, number>;
  page: number;
  pageSize: number;
  total: number;
  hrefFor: (changes: { page?: number; show?: RowFilter }) => string;
}) {
  const roleOf = new Map(mapping.map((a) => [a.column, a]));
  const tone = { blocked: "red", excluded: "slate", corrected: "green" } as const;
  return (
    <div>
      <div role="group" aria-label="Show rows" className="flex flex-wrap gap-1 border-b border-slate-100 px-4 py-2">
        {ROW_FILTERS.map((f) => (
          <Link
            key={f}
            href={hrefFor({ show: f, page: 1 })}
            aria-current={filter === f ? "true" : undefined}
            className={`rounded-full px-2.5 py-0.5 text-xs ring-1 ring-inset ${filter === f ? "bg-indigo-600 text-white ring-indigo-600" : "bg-white text-slate-700 ring-slate-300 hover:bg-slate-50"}`}
          >
            {f === "all" ? "All rows" : f[0].toUpperCase() + f.slice(1)} {counts[f].toLocaleString("en-US")}
          </Link>
        ))}
      </div>
      {records.length === 0 ? (
        <p className="p-6 text-center text-sm text-slate-600">No row in this list.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="border-collapse text-left text-sm">
            <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600">
              <tr>
                <th scope="col" className="sticky left-0 bg-slate-50 px-3 py-2 font-medium">
                  Row
                </th>
                {columns.map((c) => {
                  const a = roleOf.get(c);
                  return (
                    <th key={c} scope="col" className="min-w-40 px-3 py-2 align-bottom font-medium">
                      <span className="font-mono text-slate-800">{c}</span>
                      <span className="block font-normal text-slate-500">{a && a.role !== "extra" ? assignmentLabel(a) : "extra"}</span>
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {records.map((r, i) => {
                const n = rowNumbers[i];
                const marks = status[n] ?? [];
                return (
                  <tr key={n} className={`border-b border-slate-100 align-top last:border-0 ${marks.includes("excluded") ? "text-slate-400" : ""}`}>
                    <th scope="row" className="sticky left-0 bg-white px-3 py-2 text-xs font-normal whitespace-nowrap text-slate-600">
                      {n}
                      {marks.map((m) => (
                        <span key={m} className="mt-1 block">
                          <Badge tone={tone[m]}>{m}</Badge>
                        </span>
                      ))}
                    </th>
                    {columns.map((c) => (
                      <td key={c} className="max-w-80 px-3 py-2">
                        <span className="line-clamp-3 text-xs break-words whitespace-pre-line" title={r[c]}>
                          {r[c] === "" ? <span className="text-slate-300">empty</span> : r[c]}
                        </span>
                      </td>
                    ))}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} pageCount={Math.max(1, Math.ceil(total / pageSize))} total={total} pageSize={pageSize} hrefFor={(p) => hrefFor({ page: p })} />
    </div>
  );
}
