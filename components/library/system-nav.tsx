"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** The sections of a system. The current one is underlined. */
export function SystemNav({ systemId }: { systemId: string }) {
  const path = usePathname();
  const items = [
    { href: `/systems/${systemId}/library`, label: "Test library" },
    { href: `/systems/${systemId}/prompts`, label: "Prompts" },
    { href: `/systems/${systemId}/datasets`, label: "Datasets" },
    { href: `/systems/${systemId}/benches`, label: "Benches" },
  ];
  return (
    <nav aria-label="System sections" className="flex gap-1 border-b border-slate-200">
      {items.map((it) => {
        const active = path.startsWith(it.href);
        return (
          <Link
            key={it.href}
            href={it.href}
            aria-current={active ? "page" : undefined}
            className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium ${active ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-600 hover:text-slate-900"}`}
          >
            {it.label}
          </Link>
        );
      })}
    </nav>
  );
}
