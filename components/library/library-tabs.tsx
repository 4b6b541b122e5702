import Link from "next/link";

/** The Test library's two tabs, Cases and Criteria (links, so each tab has its own URL). */
export function LibraryTabs({ systemId, active }: { systemId: string; active: "cases" | "criteria" }) {
  const tabs = [
    { key: "cases", label: "Cases", href: `/systems/${systemId}/library` },
    { key: "criteria", label: "Criteria", href: `/systems/${systemId}/library/criteria` },
  ] as const;
  return (
    <div role="tablist" aria-label="Test library" className="inline-flex w-fit rounded-lg bg-slate-200/70 p-1">
      {tabs.map((t) => (
        <Link
          key={t.key}
          role="tab"
          aria-selected={active === t.key}
          href={t.href}
          className={`rounded-md px-4 py-1.5 text-sm font-medium ${active === t.key ? "bg-white text-slate-900 shadow-xs" : "text-slate-600 hover:text-slate-900"}`}
        >
          {t.label}
        </Link>
      ))}
    </div>
  );
}
