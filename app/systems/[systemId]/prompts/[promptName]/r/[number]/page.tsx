import { decodeRouteParam } from "@/lib/shell/route-param";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { promptPageData } from "@/server/prompts";
import { PromptHeader } from "@/components/prompts/prompt-header";
import { RevisionDetail } from "@/components/prompts/revision-detail";
import { RevisionHistory } from "@/components/prompts/revision-history";
import { LocalTime } from "@/components/ui/local-time";
import { IfRole } from "@/components/auth/role-context";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ promptName: string; number: string }> }): Promise<Metadata> {
  const p = await params;
  return { title: `${decodeRouteParam(p.promptName)} r${p.number}` };
}

/** Any revision of a prompt, read-only (revisions are immutable). */
export default async function PromptRevisionPage({ params }: { params: Promise<{ systemId: string; promptName: string; number: string }> }) {
  const { systemId, promptName, number } = await params;
  const data = await promptPageData(getDb(), systemId, decodeRouteParam(promptName));
  const rev = data?.revisions.find((r) => String(r.number) === number.replace(/^r/, ""));
  if (!data || !rev) notFound();
  const base = `/systems/${systemId}/prompts/${encodeURIComponent(data.prompt.name)}`;
  const isCurrent = rev.id === data.current.id;
  return (
    <div className="flex flex-col gap-4">
      <PromptHeader systemId={systemId} data={data} title={`r${rev.number}`} />
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_320px]">
        <div className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-5">
          <div className="flex flex-col gap-1 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700" role="note">
            <p>
              <span className="font-mono font-semibold">r{rev.number}</span> · {rev.message || (rev.number === 1 ? "first revision" : "no message")} · saved{" "}
              <LocalTime ms={rev.createdAt} /> · read-only
              {isCurrent ? " · the current revision" : ""}
            </p>
            <p className="flex flex-wrap gap-3">
              {rev.number > 1 ? (
                <Link href={`${base}/diff?from=${rev.number - 1}&to=${rev.number}`} className="font-medium text-indigo-700 hover:underline">
                  Diff vs r{rev.number - 1}
                </Link>
              ) : null}
              {!isCurrent ? (
                <>
                  <Link href={`${base}/diff?from=${rev.number}&to=${data.current.number}`} className="font-medium text-indigo-700 hover:underline">
                    Diff vs current (r{data.current.number})
                  </Link>
                  <IfRole>
                    <Link href={`${base}/edit?from=${rev.number}`} className="font-medium text-indigo-700 hover:underline">
                      Bring back r{rev.number} (edit from it)
                    </Link>
                  </IfRole>
                </>
              ) : null}
            </p>
          </div>
          <RevisionDetail revision={rev} />
        </div>
        <RevisionHistory base={base} revisions={data.revisions} currentId={data.current.id} />
      </div>
    </div>
  );
}
