import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { getCriterion, listCriteria, listCriterionRevisions } from "@/db/queries/criteria";
import { listPrompts } from "@/db/queries/systems";
import { LibraryTabs } from "@/components/library/library-tabs";
import { CriteriaList } from "@/components/library/criteria-list";
import { CriterionPanel } from "@/components/library/criterion-panel";
import { PanelNotice } from "@/components/library/panel-notice";
import { DefaultChecksEditor } from "@/components/prompts/default-checks-editor";
import { getPromptDefaultChecks } from "@/db/queries/prompt-checks";
import { IfRole } from "@/components/auth/role-context";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Criteria" };

type Raw = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function CriteriaPage({ params, searchParams }: { params: Promise<{ systemId: string }>; searchParams: Promise<Raw> }) {
  const { systemId } = await params;
  const sp = await searchParams;
  const db = getDb();
  const prompts = await listPrompts(db, systemId);
  const base = `/systems/${systemId}/library/criteria`;
  const wanted = first(sp.prompt);
  const prompt = prompts.find((p) => p.name === wanted) ?? prompts[0];
  const href = (q: Record<string, string | undefined>) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries({ prompt: prompt?.name, ...q })) if (v) p.set(k, v);
    return `${base}?${p}`;
  };

  if (!prompt) {
    return (
      <div className="flex flex-col gap-4">
        <LibraryTabs systemId={systemId} active="criteria" />
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600">
          This system has no prompts yet, so it has no criteria.
        </p>
      </div>
    );
  }

  const criteria = await listCriteria(db, prompt.id);
  const defaultChecks = await getPromptDefaultChecks(db, prompt.id);
  const editId = Number(first(sp.edit)) || undefined;
  const adding = first(sp.new) === "1";
  const editing = editId ? await getCriterion(db, editId) : null;
  const revisions = editing ? await listCriterionRevisions(db, editing.id) : [];

  let panel: React.ReactNode = null;
  if (adding) {
    panel = <CriterionPanel key="new" systemId={systemId} promptId={prompt.id} promptName={prompt.name} criterion={null} revisions={[]} closeHref={href({})} />;
  } else if (editId) {
    panel =
      editing && editing.systemId === systemId ? (
        <CriterionPanel
          key={`${editing.id}:${editing.revisionNumber}:${editing.status}`}
          systemId={systemId}
          promptId={editing.promptId}
          promptName={prompts.find((p) => p.id === editing.promptId)?.name ?? ""}
          criterion={editing}
          revisions={revisions.map((r) => ({
            number: r.number,
            createdAt: r.createdAt,
            authorEmail: r.authorEmail,
            rule: r.rule,
            passes: r.passes,
            fails: r.fails,
            priority: r.priority,
          }))}
          closeHref={href({})}
        />
      ) : (
        <PanelNotice title="Criterion not found" text={`There is no criterion #${editId} in this system.`} closeHref={href({})} />
      );
  }

  return (
    <div className="flex flex-col gap-4">
      <LibraryTabs systemId={systemId} active="criteria" />
      <div className="flex flex-wrap items-center gap-3">
        {prompts.length > 1 ? (
          <div role="group" aria-label="Prompt" className="flex flex-wrap items-center gap-2">
            <span className="text-sm text-slate-600">Prompt:</span>
            {prompts.map((p) => (
              <Link
                key={p.id}
                href={`${base}?prompt=${encodeURIComponent(p.name)}`}
                aria-current={p.id === prompt.id ? "true" : undefined}
                className={`rounded-full px-3 py-1 text-sm ring-1 ring-inset ${p.id === prompt.id ? "bg-indigo-600 text-white ring-indigo-600" : "bg-white text-slate-700 ring-slate-300 hover:bg-slate-50"}`}
              >
                {p.name}
              </Link>
            ))}
          </div>
        ) : (
          <span className="text-sm text-slate-600">
            Prompt: <span className="font-medium text-slate-900">{prompt.name}</span>
          </span>
        )}
        <IfRole>
          <Link
            href={`/systems/${systemId}/library/generate?from=criteria&prompt=${encodeURIComponent(prompt.name)}`}
            className="ml-auto inline-flex h-9 items-center rounded-md border border-slate-300 bg-white px-3.5 text-sm font-medium text-slate-800 hover:bg-slate-50"
          >
            Generate
          </Link>
          <Link
            href={href({ new: "1" })}
            className="inline-flex h-9 items-center rounded-md bg-indigo-600 px-3.5 text-sm font-medium text-white hover:bg-indigo-700"
          >
            Add criterion
          </Link>
        </IfRole>
      </div>
      <div className={`grid items-start gap-4 ${panel ? "xl:grid-cols-[minmax(0,1fr)_520px]" : ""}`}>
        <CriteriaList
          systemId={systemId}
          promptName={prompt.name}
          criteria={criteria}
          selectedId={editId}
          adding={adding}
          editHref={Object.fromEntries(criteria.map((c) => [c.id, href({ edit: String(c.id) })]))}
        />
        {panel}
      </div>
      <DefaultChecksEditor
        key={`${prompt.id}:${JSON.stringify(defaultChecks)}`}
        systemId={systemId}
        promptId={prompt.id}
        promptName={prompt.name}
        checks={defaultChecks}
      />
    </div>
  );
}
