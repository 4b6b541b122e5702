"use client";

import type { ColumnAssignment, ColumnRole } from "@/lib/import/mapping";
import type { ImportProblem } from "@/lib/import/types";
import { ROLE_OPTIONS } from "./role-options";

/**
 * The columns table of Map and preview: every column with three sample values and its role; a
 * candidate name (actual output) or variable name (variable) when the role needs one. Errors of
 * the mapping appear under the column they concern.
 */
export function ColumnsEditor({
  mapping,
  samples,
  problems,
  onRole,
  onName,
}: {
  mapping: ColumnAssignment[];
  /** Up to three sample values per column, in column order. */
  samples: string[][];
  /** Mapping problems that name a column. */
  problems: ImportProblem[];
  onRole: (index: number, role: ColumnRole) => void;
  onName: (index: number, name: string) => void;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[760px] table-fixed border-collapse text-left text-sm">
        <colgroup>
          <col className="w-44" />
          <col />
          <col className="w-60" />
          <col className="w-48" />
        </colgroup>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600">
          <tr>
            <th scope="col" className="px-4 py-2 font-medium">
              Column
            </th>
            <th scope="col" className="px-4 py-2 font-medium">
              Sample values
            </th>
            <th scope="col" className="px-4 py-2 font-medium">
              Role
            </th>
            <th scope="col" className="px-4 py-2 font-medium">
              Candidate or variable name
            </th>
          </tr>
        </thead>
        <tbody>
          {mapping.map((a, i) => {
            const errs = problems.filter((p) => p.column === a.column);
            const needsName = a.role === "actual_output" || a.role === "variable";
            const nameValue = a.role === "actual_output" ? (a.candidate ?? "") : (a.variable ?? "");
            const nameLabel = a.role === "actual_output" ? `Candidate name for ${a.column}` : `Variable name for ${a.column}`;
            return (
              <tr key={a.column} className={`border-b border-slate-100 align-top last:border-0 ${a.role === "extra" ? "" : "bg-indigo-50/30"}`}>
                <th scope="row" className="px-4 py-2.5 font-mono text-xs font-medium break-words text-slate-900">
                  {a.column}
                </th>
                <td className="px-4 py-2.5">
                  {samples[i].length === 0 ? (
                    <span className="text-xs text-slate-400">all empty</span>
                  ) : (
                    <ul className="flex min-w-0 flex-col gap-0.5">
                      {samples[i].map((s, k) => (
                        <li key={k} className="truncate text-xs text-slate-700" title={s}>
                          {s.length > 120 ? `${s.slice(0, 119)}…` : s}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td className="px-4 py-2.5">
                  <select
                    aria-label={`Role of column ${a.column}`}
                    value={a.role}
                    onChange={(e) => onRole(i, e.target.value as ColumnRole)}
                    className={`h-8 w-full rounded-md border bg-white px-2 text-sm text-slate-900 ${errs.length ? "border-red-400" : "border-slate-300"}`}
                  >
                    {ROLE_OPTIONS.map((o) => (
                      <option key={o.role} value={o.role}>
                        {o.label}
                      </option>
                    ))}
                  </select>
                  {errs.map((p) => (
                    <p key={p.code + p.message} className="mt-1 text-xs text-red-700">
                      {p.message}
                    </p>
                  ))}
                </td>
                <td className="px-4 py-2.5">
                  {needsName ? (
                    <input
                      aria-label={nameLabel}
                      value={nameValue}
                      placeholder={a.role === "actual_output" ? "e.g. model-6b" : "e.g. shop_name"}
                      onChange={(e) => onName(i, e.target.value)}
                      className={`h-8 w-full rounded-md border bg-white px-2 font-mono text-xs text-slate-900 ${nameValue.trim() === "" ? "border-red-400" : "border-slate-300"}`}
                    />
                  ) : (
                    <span className="text-xs text-slate-400">—</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
