"use client";

import Link from "next/link";
import { useMemo, useState } from "react";
import type { DatasetSummary } from "@/db/queries/datasets";
import { Badge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";

type Sort = "name" | "newest";

/**
 * Every dataset of a system with all its versions (version, file, rows, problems, created), a
 * filter on dataset and file names, and sorting by name or by the newest version.
 */
export function DatasetsTable({ datasets, base }: { datasets: DatasetSummary[]; base: string }) {
  const [q, setQ] = useState("");
  const [sort, setSort] = useState<Sort>("newest");
  const shown = useMemo(() => {
    const term = q.trim().toLowerCase();
    const list = datasets.filter((d) => !term || d.name.toLowerCase().includes(term) || d.versions.some((v) => v.fileName.toLowerCase().includes(term)));
    const newest = (d: DatasetSummary) => d.versions[0]?.createdAt ?? d.createdAt;
    return [...list].sort((a, b) => (sort === "name" ? a.name.localeCompare(b.name) : newest(b) - newest(a)));
  }, [datasets, q, sort]);
  const versionCount = datasets.reduce((n, d) => n + d.versions.length, 0);

  return (
    <div>
      <div className="flex flex-wrap items-end gap-3 border-b border-slate-200 px-4 py-3">
        <label className="flex min-w-64 flex-1 flex-col gap-1 text-xs font-medium text-slate-600">
          Filter by dataset or file name
          <input
            type="search"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            className="h-9 rounded-md border border-slate-300 bg-white px-3 text-sm font-normal text-slate-900 focus:ring-2 focus:ring-indigo-300 focus:outline-none"
          />
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
          Sort
          <select
            value={sort}
            onChange={(e) => setSort(e.target.value as Sort)}
            className="h-9 rounded-md border border-slate-300 bg-white px-2 text-sm font-normal text-slate-900"
          >
            <option value="newest">Newest version first</option>
            <option value="name">Name</option>
          </select>
        </label>
        <span className="pb-2 text-xs text-slate-500">
          {datasets.length} dataset{datasets.length === 1 ? "" : "s"}, {versionCount} version{versionCount === 1 ? "" : "s"}
        </span>
      </div>
      {shown.length === 0 ? (
        <p className="p-8 text-center text-sm text-slate-600">No dataset matches “{q}”.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full border-collapse text-left text-sm">
            <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600">
              <tr>
                <th scope="col" className="px-4 py-2 font-medium">
                  Dataset
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Version
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  File
                </th>
                <th scope="col" className="px-4 py-2 text-right font-medium">
                  Rows
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Problems
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Created
                </th>
              </tr>
            </thead>
            {shown.map((d) => (
              <tbody key={d.id} className="border-b border-slate-200 last:border-0">
                {d.versions.map((v, i) => (
                  <tr key={v.id} className="align-top hover:bg-indigo-50/40">
                    {i === 0 ? (
                      <th scope="rowgroup" rowSpan={d.versions.length} className="px-4 py-2.5 font-medium text-slate-900">
                        {d.name}
                        <span className="block text-xs font-normal text-slate-500">
                          {d.versions.length} version{d.versions.length === 1 ? "" : "s"}
                        </span>
                      </th>
                    ) : null}
                    <td className="px-4 py-2.5">
                      <Link
                        href={`${base}/${d.id}/versions/${v.version}`}
                        className="font-medium text-indigo-700 hover:underline"
                        aria-label={`${d.name} version ${v.version}`}
                      >
                        v{v.version}
                      </Link>
                      {i === 0 ? <span className="ml-2 text-xs text-slate-500">latest</span> : null}
                    </td>
                    <td className="px-4 py-2.5 font-mono text-xs break-all text-slate-700">{v.fileName}</td>
                    <td className="px-4 py-2.5 text-right tabular-nums">
                      {v.rowCount.toLocaleString("en-US")}
                      {v.excludedCount ? <span className="block text-xs text-slate-500">{v.excludedCount} excluded</span> : null}
                    </td>
                    <td className="px-4 py-2.5">
                      <span className="flex flex-wrap gap-1">
                        {v.errorCount ? (
                          <Badge tone="red">
                            {v.errorCount} error{v.errorCount === 1 ? "" : "s"}
                          </Badge>
                        ) : null}
                        {v.warningCount ? (
                          <Badge tone="amber">
                            {v.warningCount} warning{v.warningCount === 1 ? "" : "s"}
                          </Badge>
                        ) : null}
                        {!v.errorCount && !v.warningCount ? <span className="text-xs text-slate-500">none</span> : null}
                      </span>
                    </td>
                    <td className="px-4 py-2.5 text-xs whitespace-nowrap text-slate-600">
                      <LocalTime ms={v.createdAt} compact />
                      {v.authorEmail ? <span data-testid="version-author"> · {v.authorEmail}</span> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            ))}
          </table>
        </div>
      )}
    </div>
  );
}
