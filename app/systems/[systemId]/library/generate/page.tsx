import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { listGenerationRuns, listProposals } from "@/db/queries/proposals";
import { listPrompts } from "@/db/queries/systems";
import { generatorModelChoices } from "@/server/generate/with-config";
import { GenerateForm } from "@/components/generate/generate-form";
import { ProposalReview } from "@/components/generate/proposal-review";
import { RunSummary } from "@/components/generate/run-summary";
import { NeedsRole } from "@/components/auth/needs-role";
import { pageRoleRefusal } from "@/server/auth/page-guard";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Generate criteria and scenarios" };

type Raw = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** Generate and review proposed criteria and scenarios for one prompt (issue 17). `from` = the tab it was opened from. */
export default async function GeneratePage({ params, searchParams }: { params: Promise<{ systemId: string }>; searchParams: Promise<Raw> }) {
  const { systemId } = await params;
  const refused = await pageRoleRefusal("editor", "Generating and accepting criteria and scenarios");
  if (refused) return <NeedsRole refusal={refused} back={{ href: `/systems/${systemId}/library`, label: "Library" }} />;
  const sp = await searchParams;
  const db = getDb();
  const prompts = await listPrompts(db, systemId);
  const prompt = prompts.find((p) => p.name === first(sp.prompt)) ?? prompts[0];
  const from = first(sp.from) === "cases" ? "cases" : "criteria";
  const back = `/systems/${systemId}/library${from === "criteria" ? "/criteria" : ""}${prompt ? `?prompt=${encodeURIComponent(prompt.name)}` : ""}`;
  if (!prompt) {
    return (
      <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600">
        This system has no prompts yet, so there is nothing to generate for.
      </p>
    );
  }
  // Only whether a key is set (and which setting is missing) reaches the browser, never a value.
  const choices = await generatorModelChoices(db, process.env);
  const proposals = await listProposals(db, prompt.id, { status: "proposed" });
  const [lastRun] = await listGenerationRuns(db, prompt.id, 1);
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline gap-3">
        <h1 className="text-xl font-semibold">Generate criteria and scenarios</h1>
        <span className="text-sm text-slate-600">
          Prompt <span className="font-medium text-slate-900">{prompt.name}</span>
          {prompt.revision ? ` (revision ${prompt.revision.number})` : ""}
        </span>
        <Link href={back} className="ml-auto text-sm text-indigo-700 hover:underline">
          Back to {from === "criteria" ? "Criteria" : "Cases"}
        </Link>
      </div>
      {prompts.length > 1 ? (
        <div role="group" aria-label="Prompt" className="flex flex-wrap items-center gap-2">
          {prompts.map((p) => (
            <Link
              key={p.id}
              href={`?prompt=${encodeURIComponent(p.name)}&from=${from}`}
              aria-current={p.id === prompt.id ? "true" : undefined}
              className={`rounded-full px-3 py-1 text-sm ring-1 ring-inset ${p.id === prompt.id ? "bg-indigo-600 text-white ring-indigo-600" : "bg-white text-slate-700 ring-slate-300 hover:bg-slate-50"}`}
            >
              {p.name}
            </Link>
          ))}
        </div>
      ) : null}
      <p className="max-w-3xl text-sm text-slate-600">
        A model proposes criteria and scenarios from the prompt&apos;s system prompt, variables and tools, avoiding what the library already has. Proposals stay
        inactive until you accept them: Accept makes a generated criterion or case (read-only, with Customize), Customize makes a custom one, Dismiss drops it.
      </p>
      <GenerateForm
        key={prompt.id}
        systemId={systemId}
        promptId={prompt.id}
        choices={choices}
        defaults={from === "criteria" ? { criteria: 5, scenarios: 0 } : { criteria: 0, scenarios: 5 }}
      />
      {lastRun ? <RunSummary run={lastRun} /> : null}
      <ProposalReview systemId={systemId} promptId={prompt.id} proposals={proposals} />
    </div>
  );
}
