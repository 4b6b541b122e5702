import { decodeRouteParam } from "@/lib/shell/route-param";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { z } from "zod";
import { getDb } from "@/db/client";
import { diffPromptRevisions } from "@/lib/prompts/diff";
import { promptPageData } from "@/server/prompts";
import { PromptHeader } from "@/components/prompts/prompt-header";
import { RevisionDiffView } from "@/components/prompts/revision-diff";
import { RevisionHistory } from "@/components/prompts/revision-history";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Prompt diff" };

const query = z.object({
  from: z.coerce.number().int().positive().optional(),
  to: z.coerce.number().int().positive().optional(),
  saved: z.literal("1").optional(),
});

/** The diff between any two revisions of a prompt (default: the previous one → the current one). */
export default async function PromptDiffPage({
  params,
  searchParams,
}: {
  params: Promise<{ systemId: string; promptName: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { systemId, promptName } = await params;
  const data = await promptPageData(getDb(), systemId, decodeRouteParam(promptName));
  if (!data) notFound();
  const q = query.safeParse(await searchParams);
  const wanted: z.infer<typeof query> = q.success ? q.data : {};
  const to = data.revisions.find((r) => r.number === (wanted.to ?? data.current.number));
  const from = data.revisions.find((r) => r.number === (wanted.from ?? (to ? to.number - 1 : 0)));
  const base = `/systems/${systemId}/prompts/${encodeURIComponent(data.prompt.name)}`;
  return (
    <div className="flex flex-col gap-4">
      <PromptHeader systemId={systemId} data={data} title="diff" />
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_320px]">
        <div className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-5">
          {from && to ? (
            <>
              {wanted.saved && to.id === data.current.id ? (
                <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
                  Saved r{to.number}: it is now the current revision. Benches that used r{from.number} keep it; bench the change with &quot;Bench r{to.number}{" "}
                  vs r{from.number}&quot;.
                </p>
              ) : null}
              <h3 className="text-base font-semibold text-slate-900">
                r{from.number} → r{to.number}
              </h3>
              <p className="text-sm text-slate-600">
                r{from.number}: {from.message || (from.number === 1 ? "first revision" : "no message")} · r{to.number}:{" "}
                {to.message || (to.number === 1 ? "first revision" : "no message")}
              </p>
              <RevisionDiffView diff={diffPromptRevisions(from, to)} fromLabel={`r${from.number}`} toLabel={`r${to.number}`} />
            </>
          ) : (
            <p role="alert" className="text-sm text-slate-700">
              {data.revisions.length < 2
                ? `${data.prompt.name} has one revision: edit it to make a second one, then compare.`
                : `No revision ${!to ? `r${wanted.to}` : `r${wanted.from}`}: ${data.prompt.name} has r1 to r${data.current.number}.`}
            </p>
          )}
        </div>
        <RevisionHistory base={base} revisions={data.revisions} currentId={data.current.id} selected={{ from: from?.number, to: to?.number }} />
      </div>
    </div>
  );
}
