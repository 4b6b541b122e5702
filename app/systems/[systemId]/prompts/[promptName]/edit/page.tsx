import { decodeRouteParam } from "@/lib/shell/route-param";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { promptPageData } from "@/server/prompts";
import { PromptHeader } from "@/components/prompts/prompt-header";
import { PromptEditForm } from "@/components/prompts/prompt-edit-form";
import { NeedsRole } from "@/components/auth/needs-role";
import { pageRoleRefusal } from "@/server/auth/page-guard";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Edit prompt" };

const str = (v: unknown) => (v === undefined || v === null ? "" : String(v));

/**
 * Edit: a form prefilled from the current revision (or from `?from=N`, to bring back an earlier
 * one); saving makes the next revision, based on the revision that was current when the form opened.
 */
export default async function EditPromptPage({
  params,
  searchParams,
}: {
  params: Promise<{ systemId: string; promptName: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { systemId, promptName } = await params;
  const refused = await pageRoleRefusal("editor", "Editing a prompt");
  if (refused) return <NeedsRole refusal={refused} back={{ href: `/systems/${systemId}/prompts/${promptName}`, label: "The prompt" }} />;
  const from = (await searchParams).from;
  const data = await promptPageData(getDb(), systemId, decodeRouteParam(promptName));
  if (!data) notFound();
  const r = (typeof from === "string" && data.revisions.find((x) => String(x.number) === from.replace(/^r/, ""))) || data.current;
  const s = r.modelSettings as Record<string, unknown>;
  return (
    <div className="flex max-w-4xl flex-col gap-4">
      <PromptHeader systemId={systemId} data={data} title="edit" />
      <PromptEditForm
        systemId={systemId}
        promptId={data.prompt.id}
        promptName={data.prompt.name}
        base={{ id: data.current.id, number: data.current.number, systemPrompt: data.current.systemPrompt }}
        prefilledFrom={r.id === data.current.id ? undefined : r.number}
        initial={{
          systemPrompt: r.systemPrompt,
          temperature: str(s.temperature),
          maxOutputTokens: str(s.maxOutputTokens),
          topP: str(s.topP),
          stopSequences: Array.isArray(s.stopSequences) ? s.stopSequences.join("\n") : "",
          providerOptions: s.providerOptions ? JSON.stringify(s.providerOptions, null, 2) : "",
          tools: JSON.stringify(r.tools, null, 2),
          message: "",
        }}
      />
    </div>
  );
}
