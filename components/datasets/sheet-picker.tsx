"use client";

import { useRouter } from "next/navigation";

/**
 * Worksheet choice of a workbook upload. Hidden sheets are listed and marked "(hidden)"; nothing is
 * chosen silently: with several visible sheets the user must pick one. Changing it reloads the step.
 */
export function SheetPicker({
  sheets,
  sheet,
  hrefFor,
}: {
  sheets: { name: string; hidden: boolean }[];
  sheet: string | null;
  hrefFor: Record<string, string>;
}) {
  const router = useRouter();
  return (
    <label className="flex flex-col gap-1 text-sm font-medium text-slate-800">
      Worksheet
      <select
        value={sheet ?? ""}
        onChange={(e) => e.target.value && router.push(hrefFor[e.target.value])}
        className="h-9 w-72 rounded-md border border-slate-300 bg-white px-2 text-sm font-normal text-slate-900"
      >
        {sheet === null ? <option value="">Choose a worksheet…</option> : null}
        {sheets.map((s) => (
          <option key={s.name} value={s.name}>
            {s.name}
            {s.hidden ? " (hidden)" : ""}
          </option>
        ))}
      </select>
    </label>
  );
}
