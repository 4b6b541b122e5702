"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import type { CaseListRow } from "@/db/queries/cases";
import type { CaseSortValue } from "@/lib/library/cases-url";
import { Badge, SOURCE_TONE } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";

const col = createColumnHelper<CaseListRow>();

function SortLink({
  label,
  asc,
  desc,
  sort,
  hrefs,
}: {
  label: string;
  asc: CaseSortValue;
  desc: CaseSortValue;
  sort: CaseSortValue;
  hrefs: Record<string, string>;
}) {
  const state = sort === asc ? "ascending" : sort === desc ? "descending" : undefined;
  const next = sort === desc ? asc : desc;
  return (
    <Link href={hrefs[next]} className="inline-flex items-center gap-1 hover:text-slate-900" aria-label={`Sort by ${label}`}>
      {label}
      <span aria-hidden className="text-[10px]">
        {state === "ascending" ? "▲" : state === "descending" ? "▼" : "↕"}
      </span>
    </Link>
  );
}

/**
 * The Cases table (server-paged; sorting is by URL so it covers all pages, not just this one).
 * A row opens the case in the side panel; Enter on a focused row does the same; with `selection`,
 * Space on a focused row ticks it for the bulk action.
 */
export function CasesTable({
  rows,
  showPrompt,
  sort,
  selectedId,
  hrefs,
  emptyText,
  compact = false,
  selection,
}: {
  compact?: boolean;
  /** Ticked rows for the bulk action (issue 15); absent = no checkboxes. */
  selection?: { ids: ReadonlySet<number>; onToggle: (id: number, on: boolean) => void; onToggleAll: (on: boolean) => void };
  rows: CaseListRow[];
  showPrompt: boolean;
  sort: CaseSortValue;
  selectedId?: number;
  hrefs: { sort: Record<string, string>; row: Record<string, string> };
  emptyText: string;
}) {
  const router = useRouter();
  const allTicked = Boolean(selection) && rows.length > 0 && rows.every((r) => selection!.ids.has(r.id));
  const columns = [
    ...(selection
      ? [
          col.display({
            id: "tick",
            header: () => (
              <input type="checkbox" aria-label="Tick every case on this page" checked={allTicked} onChange={(e) => selection.onToggleAll(e.target.checked)} />
            ),
            cell: (c) => (
              <input
                type="checkbox"
                // Not a tab stop: the row keeps one (its case ID link), where Space ticks the row.
                tabIndex={-1}
                aria-label={`Tick ${c.row.original.caseKey}`}
                checked={selection.ids.has(c.row.original.id)}
                onClick={(e) => e.stopPropagation()}
                onChange={(e) => selection.onToggle(c.row.original.id, e.target.checked)}
              />
            ),
          }),
        ]
      : []),
    col.accessor("caseKey", {
      header: () => <SortLink label="Case ID" asc="id-asc" desc="id-desc" sort={sort} hrefs={hrefs.sort} />,
      cell: (c) => (
        <Link
          href={hrefs.row[c.row.original.id]}
          title={c.getValue()}
          className="block truncate font-mono text-xs text-indigo-700 hover:underline"
          onClick={(e) => e.stopPropagation()}
        >
          {c.getValue()}
        </Link>
      ),
    }),
    ...(showPrompt && !compact
      ? [col.accessor("promptName", { header: "Prompt", cell: (c) => <span className="text-xs text-slate-700">{c.getValue()}</span> })]
      : []),
    col.accessor("source", {
      header: "Source",
      cell: (c) => (
        <span className="flex flex-col items-start gap-1">
          <Badge tone={SOURCE_TONE[c.getValue()]}>{c.getValue()}</Badge>
          {c.row.original.userCorrected ? <span className="text-[11px] text-slate-500">corrected</span> : null}
        </span>
      ),
    }),
    col.accessor("input", { header: "Input", cell: (c) => <span className="line-clamp-2 text-sm text-slate-800">{c.getValue()}</span> }),
    col.accessor("expected", { header: "Expected result", cell: (c) => <span className="line-clamp-2 text-sm text-slate-600">{c.getValue()}</span> }),
    col.accessor("status", {
      header: "Status",
      cell: (c) => <Badge tone={c.getValue() === "active" ? "green" : "slate"}>{c.getValue()}</Badge>,
    }),
    ...(compact
      ? []
      : [
          col.accessor("updatedAt", {
            header: () => <SortLink label="Last edit" asc="updated-asc" desc="updated-desc" sort={sort} hrefs={hrefs.sort} />,
            cell: (c) => (
              <span className="text-xs whitespace-nowrap text-slate-600">
                <LocalTime ms={c.getValue()} compact />
                <span className="block text-slate-400">rev {c.row.original.revisionNumber}</span>
              </span>
            ),
          }),
        ]),
  ];
  // TanStack Table is not memoizable by the React Compiler (which this app does not use).
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: rows,
    columns,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
    getRowId: (r) => String(r.id),
  });

  if (rows.length === 0) return <p className="p-8 text-center text-sm text-slate-600">{emptyText}</p>;

  return (
    <div className="overflow-x-auto">
      <table className="w-full table-fixed border-collapse text-left">
        <colgroup>
          {selection ? <col className="w-9" /> : null}
          <col className="w-40" />
          {showPrompt && !compact ? <col className="w-28" /> : null}
          <col className="w-24" />
          <col />
          <col className="w-[30%]" />
          <col className="w-20" />
          {compact ? null : <col className="w-32" />}
        </colgroup>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs font-medium text-slate-600">
          {table.getHeaderGroups().map((hg) => (
            <tr key={hg.id}>
              {hg.headers.map((h) => (
                <th key={h.id} scope="col" className="px-3 py-2 font-medium">
                  {flexRender(h.column.columnDef.header, h.getContext())}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((r) => {
            const selected = r.original.id === selectedId;
            return (
              <tr
                key={r.id}
                aria-selected={selected}
                // The case ID link is the row's one tab stop (Enter opens the case); the whole row is
                // clickable for the mouse, and ↑/↓ move between the rows' links.
                onClick={() => router.push(hrefs.row[r.original.id])}
                onKeyDown={(e) => {
                  if (e.key === " " && selection) {
                    e.preventDefault();
                    selection.onToggle(r.original.id, !selection.ids.has(r.original.id));
                    return;
                  }
                  if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
                  const next = e.key === "ArrowDown" ? e.currentTarget.nextElementSibling : e.currentTarget.previousElementSibling;
                  const link = next?.querySelector<HTMLAnchorElement>("a[href]");
                  if (link) {
                    e.preventDefault();
                    link.focus();
                  }
                }}
                className={`cursor-pointer border-b border-slate-100 align-top last:border-0 hover:bg-indigo-50/40 ${selected ? "bg-indigo-50" : ""}`}
              >
                {r.getVisibleCells().map((c) => (
                  <td key={c.id} className="px-3 py-2.5">
                    {flexRender(c.column.columnDef.cell, c.getContext())}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
