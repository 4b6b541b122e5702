import type { ColumnMapping } from "@/lib/import/mapping";
import { assignmentLabel } from "@/lib/datasets/labels";

/** A saved mapping: each column and the role it has. */
export function MappingView({ mapping }: { mapping: ColumnMapping }) {
  return (
    <table className="w-full border-collapse text-left text-sm">
      <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600">
        <tr>
          <th scope="col" className="px-4 py-2 font-medium">
            Column
          </th>
          <th scope="col" className="px-4 py-2 font-medium">
            Role
          </th>
        </tr>
      </thead>
      <tbody>
        {mapping.map((a) => (
          <tr key={a.column} className="border-b border-slate-100 last:border-0">
            <th scope="row" className="px-4 py-1.5 font-mono text-xs font-normal break-all text-slate-800">
              {a.column}
            </th>
            <td className={`px-4 py-1.5 text-sm ${a.role === "extra" ? "text-slate-500" : "text-slate-900"}`}>
              {a.role === "extra" ? "extra column (kept)" : assignmentLabel(a)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
