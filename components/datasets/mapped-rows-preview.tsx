import type { CaseDraft } from "@/lib/import/mapping";
import { Badge } from "@/components/ui/badge";
import { DraftDetails } from "./draft-summary";

/** The first mapped rows, as the cases they would become. */
export function MappedRowsPreview({ drafts, showCaseId }: { drafts: CaseDraft[]; showCaseId: boolean }) {
  if (drafts.length === 0) return <p className="px-4 py-3 text-sm text-slate-600">No row to show: every row is excluded.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full table-fixed border-collapse text-left text-sm">
        <colgroup>
          <col className="w-20" />
          {showCaseId ? <col className="w-36" /> : null}
          <col />
          <col className="w-[26%]" />
          <col className="w-[30%]" />
        </colgroup>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600">
          <tr>
            <th scope="col" className="px-4 py-2 font-medium">
              Row
            </th>
            {showCaseId ? (
              <th scope="col" className="px-4 py-2 font-medium">
                Case ID
              </th>
            ) : null}
            <th scope="col" className="px-4 py-2 font-medium">
              Input
            </th>
            <th scope="col" className="px-4 py-2 font-medium">
              Expected result
            </th>
            <th scope="col" className="px-4 py-2 font-medium">
              Other fields
            </th>
          </tr>
        </thead>
        <tbody>
          {drafts.map((d) => (
            <tr key={d.rowNumber} className="border-b border-slate-100 align-top last:border-0">
              <td className="px-4 py-2.5 text-xs text-slate-600">
                {d.rowNumber}
                {d.blocked ? (
                  <span className="mt-1 block">
                    <Badge tone="red">blocked</Badge>
                  </span>
                ) : null}
              </td>
              {showCaseId ? (
                <td className="px-4 py-2.5 font-mono text-xs break-all text-slate-700">{d.caseKey ?? <span className="text-slate-400">generated</span>}</td>
              ) : null}
              <td className="px-4 py-2.5">
                <span className="line-clamp-3 whitespace-pre-line text-slate-800">{d.content.input || <em className="text-red-700">missing</em>}</span>
              </td>
              <td className="px-4 py-2.5">
                <span className="line-clamp-3 whitespace-pre-line text-slate-600">{d.content.expected || <em className="text-red-700">missing</em>}</span>
              </td>
              <td className="px-4 py-2.5">
                <DraftDetails content={d.content} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
