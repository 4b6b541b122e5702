import { decodeRouteParam } from "@/lib/shell/route-param";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { promptPageData } from "@/server/prompts";
import { PromptHeader } from "@/components/prompts/prompt-header";
import { RevisionDetail, Section } from "@/components/prompts/revision-detail";
import { RevisionHistory } from "@/components/prompts/revision-history";
import { DefaultChecksEditor } from "@/components/prompts/default-checks-editor";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ promptName: string }> }): Promise<Metadata> {
  return { title: `Prompt ${decodeRouteParam((await params).promptName)}` };
}

/** The Prompt page: the current revision (template, settings, tools), the prompt's notes and default checks, and the history. */
export default async function PromptPage({ params }: { params: Promise<{ systemId: string; promptName: string }> }) {
  const { systemId, promptName } = await params;
  const data = await promptPageData(getDb(), systemId, decodeRouteParam(promptName));
  if (!data) notFound();
  const base = `/systems/${systemId}/prompts/${encodeURIComponent(data.prompt.name)}`;
  return (
    <div className="flex flex-col gap-4">
      <PromptHeader systemId={systemId} data={data} />
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_320px]">
        <div className="flex flex-col gap-5 rounded-lg border border-slate-200 bg-white p-5">
          <RevisionDetail revision={data.current} />
          <Section title="Notes">
            {data.prompt.description ? (
              <p className="text-sm text-slate-700">{data.prompt.description}</p>
            ) : (
              <p className="text-sm text-slate-500">No notes.</p>
            )}
          </Section>
          <DefaultChecksEditor
            key={JSON.stringify(data.defaultChecks)}
            systemId={systemId}
            promptId={data.prompt.id}
            promptName={data.prompt.name}
            checks={data.defaultChecks}
          />
        </div>
        <RevisionHistory base={base} revisions={data.revisions} currentId={data.current.id} />
      </div>
    </div>
  );
}
