import Link from "next/link";
import type { PromptPageData } from "@/server/prompts";
import { LocalTime } from "@/components/ui/local-time";
import { AuthorNote } from "@/components/audit/author-note";
import { IfRole } from "@/components/auth/role-context";

const linkButton = "inline-flex h-9 items-center rounded-md px-3.5 text-sm font-medium whitespace-nowrap";

/** Top of every Prompt page: back to the list, name, notes, current revision, and the main actions. */
export function PromptHeader({ systemId, data, title }: { systemId: string; data: PromptPageData; title?: string }) {
  const { prompt, current, revisions } = data;
  const base = `/systems/${systemId}/prompts/${encodeURIComponent(prompt.name)}`;
  return (
    <div className="flex flex-wrap items-start justify-between gap-3">
      <div className="min-w-0">
        <nav aria-label="Prompt breadcrumb" className="text-xs text-slate-500">
          <Link href={`/systems/${systemId}/prompts`} className="hover:text-slate-800">
            Prompts
          </Link>{" "}
          /{" "}
          {title ? (
            <Link href={base} className="hover:text-slate-800">
              {prompt.name}
            </Link>
          ) : (
            <span className="text-slate-700">{prompt.name}</span>
          )}
          {title ? (
            <>
              {" "}
              / <span className="text-slate-700">{title}</span>
            </>
          ) : null}
        </nav>
        <h2 className="mt-1 font-mono text-lg font-semibold text-slate-900">{prompt.name}</h2>
        <p className="mt-1 text-sm text-slate-700" data-testid="current-revision">
          Current: <span className="font-mono font-semibold">r{current.number}</span>
          {current.message ? <> · {current.message}</> : null} · saved <LocalTime ms={current.createdAt} />
          <AuthorNote email={current.authorEmail} /> · {revisions.length} revision
          {revisions.length === 1 ? "" : "s"}
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        {title !== "edit" ? (
          <IfRole>
            <Link href={`${base}/edit`} className={`${linkButton} bg-indigo-600 text-white hover:bg-indigo-700`}>
              Edit
            </Link>
          </IfRole>
        ) : null}
        {revisions.length > 1 ? (
          <IfRole>
            <Link
              href={`/systems/${systemId}/benches/new?prompt=${encodeURIComponent(prompt.name)}&change=1`}
              className={`${linkButton} border border-slate-300 bg-white text-slate-800 hover:bg-slate-50`}
            >
              Bench r{current.number} vs r{revisions[1].number}
            </Link>
          </IfRole>
        ) : null}
      </div>
    </div>
  );
}
