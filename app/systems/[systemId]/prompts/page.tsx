import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { listPromptRevisions } from "@/db/queries/prompt-revisions";
import { listPrompts } from "@/db/queries/systems";
import { templateVariables } from "@/lib/runtime/template";
import { LocalTime } from "@/components/ui/local-time";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Prompts" };

/** Prompts: every prompt of the system with its current revision; each opens its Prompt page. */
export default async function PromptsPage({ params }: { params: Promise<{ systemId: string }> }) {
  const { systemId } = await params;
  const db = getDb();
  const prompts = await listPrompts(db, systemId);
  const rows = await Promise.all(prompts.map(async (p) => ({ p, revisions: await listPromptRevisions(db, p.id) })));
  if (!rows.length)
    return <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600">This system has no prompts yet.</p>;
  return (
    <ul className="grid gap-3 md:grid-cols-2" aria-label="Prompts">
      {rows.map(({ p, revisions }) => {
        const cur = revisions.find((r) => r.id === p.revision?.id);
        const vars = templateVariables(p.revision?.systemPrompt ?? "");
        return (
          <li key={p.id} className="flex flex-col gap-1 rounded-lg border border-slate-200 bg-white p-4" data-testid="prompt-card">
            <Link
              href={`/systems/${systemId}/prompts/${encodeURIComponent(p.name)}`}
              className="font-mono text-base font-semibold text-indigo-700 hover:underline"
            >
              {p.name}
            </Link>
            {p.description ? <p className="text-sm text-slate-600">{p.description}</p> : null}
            <p className="text-xs text-slate-500">
              r{cur?.number ?? "?"}
              {cur?.message ? ` · ${cur.message}` : ""} · {cur ? <LocalTime ms={cur.createdAt} compact /> : null} · {revisions.length} revision
              {revisions.length === 1 ? "" : "s"} · {p.revision?.tools.length ?? 0} tools
              {vars.length ? ` · variables ${vars.join(", ")}` : ""}
            </p>
            <p className="line-clamp-2 font-mono text-xs text-slate-700">{p.revision?.systemPrompt}</p>
          </li>
        );
      })}
    </ul>
  );
}
