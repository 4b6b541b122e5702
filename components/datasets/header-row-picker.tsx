"use client";

import { useRouter } from "next/navigation";

/**
 * Header row choice on Map and preview (item 29): the header as read or one of the first rows
 * below it, each shown with its line (CSV) or sheet row (XLSX) and its first cells. Changing it
 * reloads the step with `?header=N`.
 */
export function HeaderRowPicker({ choices, value }: { choices: { value: string; label: string; href: string }[]; value: string }) {
  const router = useRouter();
  return (
    <label className="flex flex-col gap-1 text-sm font-medium text-slate-800">
      Header row
      <select
        value={value}
        onChange={(e) => {
          const c = choices.find((x) => x.value === e.target.value);
          if (c) router.push(c.href);
        }}
        className="h-9 w-96 max-w-full rounded-md border border-slate-300 bg-white px-2 text-sm font-normal text-slate-900"
      >
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    </label>
  );
}
