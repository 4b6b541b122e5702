"use client";

import type { RowCheckProblem } from "@/lib/datasets/check-rows";
import { DATASET_CHECK_LABEL, type CheckOption, type DatasetCheckKind } from "@/lib/datasets/checks";

/**
 * The checks offered at mapping time (issue 15): one checkbox per check the mapped roles make
 * possible, the proposed ones ticked with the reason. The ticked ones are saved with the version
 * and every golden case made from it gets them.
 */
export function ChecksPicker({
  options,
  problems = [],
  chosen,
  onToggle,
}: {
  options: CheckOption[];
  /** Rows the ticked checks cannot use (Use a dataset would refuse them). */
  problems?: RowCheckProblem[];
  chosen: ReadonlySet<DatasetCheckKind>;
  onToggle: (kind: DatasetCheckKind, on: boolean) => void;
}) {
  if (options.length === 0)
    return <p className="px-4 py-3 text-sm text-slate-600">Map a column to the expected result (or to expected tool calls) to get checks with the data.</p>;
  return (
    <>
      {problems.length ? (
        <div role="alert" className="mx-4 mt-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
          <p className="font-medium">
            {problems.length === 1 ? "1 row" : `${problems.length.toLocaleString("en-US")} rows`} cannot get the ticked checks: Use a dataset would refuse this
            version. Untick the check, or correct {problems.length === 1 ? "the row" : "those rows"} in the file and upload it again.
          </p>
          <ul className="mt-1 list-disc pl-5 text-xs">
            {problems.slice(0, 5).map((p) => (
              <li key={p.row}>{p.message}</li>
            ))}
            {problems.length > 5 ? <li>… and {(problems.length - 5).toLocaleString("en-US")} more</li> : null}
          </ul>
        </div>
      ) : null}
      <ul aria-label="Checks for every case" className="flex flex-col divide-y divide-slate-100">
        {options.map((o) => {
          const id = `check-${o.check.kind}`;
          return (
            <li key={o.check.kind} className="flex items-start gap-3 px-4 py-2.5">
              <input id={id} type="checkbox" className="mt-1" checked={chosen.has(o.check.kind)} onChange={(e) => onToggle(o.check.kind, e.target.checked)} />
              <label htmlFor={id} className="min-w-0 text-sm">
                <span className="font-medium text-slate-900">{DATASET_CHECK_LABEL[o.check.kind]}</span>
                {o.proposed ? <span className="ml-2 rounded bg-emerald-50 px-1.5 py-0.5 text-xs font-medium text-emerald-800">proposed</span> : null}
                <span className="block text-xs text-slate-500">{o.reason}</span>
              </label>
            </li>
          );
        })}
      </ul>
    </>
  );
}
