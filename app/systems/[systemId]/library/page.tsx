import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { canRemove, getCase, getCaseRevision, listCases } from "@/db/queries/cases";
import { caseCountsBySource, getSystem, listPrompts } from "@/db/queries/systems";
import { casesHref, parseCasesParams } from "@/lib/library/cases-url";
import { LibraryTabs } from "@/components/library/library-tabs";
import { CasesToolbar } from "@/components/library/cases-toolbar";
import { CasesWithBulk } from "@/components/library/cases-bulk";
import { Pager } from "@/components/library/pager";
import { CasePanel } from "@/components/library/case-panel";
import { AddCasePanel } from "@/components/library/add-case-panel";
import { RevisionView } from "@/components/library/revision-view";
import { PanelNotice } from "@/components/library/panel-notice";
import { templateVariables } from "@/lib/runtime/template";
import { getPromptDefaultChecks } from "@/db/queries/prompt-checks";
import { describeEvaluator } from "@/lib/evaluators/describe";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Test library" };

export default async function CasesPage({
  params,
  searchParams,
}: {
  params: Promise<{ systemId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { systemId } = await params;
  const state = parseCasesParams(await searchParams);
  const db = getDb();
  const base = `/systems/${systemId}/library`;
  const system = (await getSystem(db, systemId))!;
  const prompts = await listPrompts(db, systemId);
  const prompt = state.prompt ? prompts.find((p) => p.name === state.prompt) : undefined;
  const unknownPrompt = state.prompt && !prompt ? state.prompt : null;

  const [page, counts] = await Promise.all([
    listCases(db, { systemId, source: state.source, status: state.status, promptId: prompt?.id, q: state.q, page: state.page, sort: state.sort }),
    // The source chips count within the prompt and status filters (not the search: see caseCountsBySource).
    caseCountsBySource(db, systemId, { promptId: prompt?.id, status: state.status }),
  ]);

  const detail = state.caseId ? await getCase(db, state.caseId) : null;
  const wrongSystem = detail && detail.systemId !== systemId;
  const revision = detail && !wrongSystem && state.rev && state.rev !== detail.revisionNumber ? await getCaseRevision(db, detail.id, state.rev) : null;
  const closeHref = casesHref(base, state, { caseId: undefined, rev: undefined, adding: false });
  const panelOpen = state.adding || Boolean(state.caseId);

  let panel: React.ReactNode = null;
  if (state.adding) {
    panel = (
      <AddCasePanel
        systemId={systemId}
        prompts={prompts.map((p) => ({ id: p.id, name: p.name, variables: templateVariables(p.revision?.systemPrompt ?? "") }))}
        defaultPromptId={prompt?.id}
        closeHref={closeHref}
        afterAddHref={casesHref(base, { ...state, page: 1, sort: "updated-desc", source: undefined, status: undefined, q: undefined }, { adding: false })}
      />
    );
  } else if (state.caseId) {
    if (!detail || wrongSystem) {
      panel = (
        <PanelNotice
          title="Case not found"
          closeHref={closeHref}
          text={`There is no case #${state.caseId} in ${system.name}. The link may be mistyped or from another workspace.`}
        />
      );
    } else if (detail.removedAt) {
      panel = (
        <PanelNotice
          title={`Case ${detail.caseKey} was removed`}
          closeHref={closeHref}
          text={`It was removed on ${new Date(detail.removedAt).toISOString().slice(0, 10)}. Scores of earlier benches that used it remain in their history; its saved details were erased, so there is nothing to show or edit.`}
        />
      );
    } else if (state.rev && state.rev !== detail.revisionNumber) {
      panel = revision ? (
        <RevisionView
          caseKey={detail.caseKey}
          revision={revision}
          currentNumber={detail.revisionNumber}
          currentHref={casesHref(base, state, { rev: undefined })}
          closeHref={closeHref}
        />
      ) : (
        <PanelNotice
          title="Revision not found"
          closeHref={casesHref(base, state, { rev: undefined })}
          text={`Case ${detail.caseKey} has no revision ${state.rev}. It has revisions 1 to ${detail.revisionNumber}.`}
        />
      );
    } else {
      panel = (
        <CasePanel
          key={`${detail.id}:${detail.revisionNumber}`}
          systemId={systemId}
          detail={{ ...detail, removable: canRemove(detail) }}
          hasSeveralPrompts={prompts.length > 1}
          promptVariables={templateVariables(prompts.find((p) => p.id === detail.promptId)?.revision?.systemPrompt ?? "")}
          promptDefaultChecks={(await getPromptDefaultChecks(db, detail.promptId)).map((c) => describeEvaluator(c))}
          closeHref={closeHref}
          revisionHrefs={Object.fromEntries(
            detail.revisions.map((r) => [r.number, casesHref(base, state, { rev: r.number === detail.revisionNumber ? undefined : r.number })]),
          )}
        />
      );
    }
  }

  return (
    <div className="flex flex-col gap-4">
      <LibraryTabs systemId={systemId} active="cases" />
      <CasesToolbar
        base={base}
        state={state}
        counts={counts}
        prompts={prompts.map((p) => p.name)}
        addHref={casesHref(base, state, { adding: true, caseId: undefined, rev: undefined })}
        uploadHref={`/systems/${systemId}/datasets/upload`}
        generateHref={`/systems/${systemId}/library/generate?from=cases${prompt ? `&prompt=${encodeURIComponent(prompt.name)}` : ""}`}
        exportHrefs={
          Object.fromEntries(
            (["csv", "jsonl"] as const).map((format) => {
              // The export follows the filters on screen (prompt, source, status, search).
              const q = new URLSearchParams({ format });
              if (prompt) q.set("prompt", prompt.name);
              if (state.source) q.set("source", state.source);
              if (state.status) q.set("status", state.status);
              if (state.q) q.set("q", state.q);
              return [format, `/api/systems/${systemId}/library/export?${q}`];
            }),
          ) as { csv: string; jsonl: string }
        }
      />
      {unknownPrompt ? (
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          This system has no prompt named “{unknownPrompt}”; showing cases of every prompt.
        </p>
      ) : null}
      {page.truncated ? (
        <p role="status" className="rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-900">
          More than {page.total.toLocaleString("en-US")} cases match “{state.q}”; the {page.total.toLocaleString("en-US")} newest are listed. Add words to
          narrow the search.
        </p>
      ) : null}
      <div className={`grid items-start gap-4 ${panelOpen ? "xl:grid-cols-[minmax(0,1fr)_500px]" : ""}`}>
        <section aria-label="Cases" className="min-w-0 rounded-lg border border-slate-200 bg-white">
          <CasesWithBulk
            systemId={systemId}
            filter={{ promptId: prompt?.id, source: state.source, status: state.status, q: state.q || undefined }}
            total={page.total}
            table={{
              rows: page.rows,
              showPrompt: prompts.length > 1,
              compact: panelOpen,
              sort: state.sort,
              selectedId: state.caseId,
              hrefs: {
                sort: Object.fromEntries((["updated-desc", "updated-asc", "id-asc", "id-desc"] as const).map((s) => [s, casesHref(base, state, { sort: s })])),
                row: Object.fromEntries(page.rows.map((r) => [r.id, casesHref(base, state, { caseId: r.id, rev: undefined, adding: false })])),
              },
              emptyText:
                state.q || state.source || state.status || prompt
                  ? "No cases match these filters."
                  : "This library has no cases yet. Use Add case to write the first one.",
            }}
          />
          <Pager page={page.page} pageCount={page.pageCount} total={page.total} pageSize={page.pageSize} hrefFor={(n) => casesHref(base, state, { page: n })} />
        </section>
        {panel}
      </div>
    </div>
  );
}
