import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { listModelConfigs } from "@/db/queries/models";
import { listPromptRevisions } from "@/db/queries/prompt-revisions";
import { promptDatasets, promptTags, recordedNames } from "@/db/queries/prompt-facets";
import { listPrompts } from "@/db/queries/systems";
import { activeRubric } from "@/db/queries/criteria";
import { NewBenchForm } from "@/components/benches/new-bench-form";
import { generatorModelChoices } from "@/server/generate/with-config";
import { NeedsRole } from "@/components/auth/needs-role";
import { pageRoleRefusal } from "@/server/auth/page-guard";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "New bench" };

export default async function NewBenchPage({
  params,
  searchParams,
}: {
  params: Promise<{ systemId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { systemId } = await params;
  const refused = await pageRoleRefusal("editor", "Launching a bench");
  if (refused) return <NeedsRole refusal={refused} back={{ href: `/systems/${systemId}/benches`, label: "Benches" }} />;
  const sp = await searchParams;
  const db = getDb();
  const prompts = await listPrompts(db, systemId);
  const prompt = prompts.find((p) => p.name === sp.prompt) ?? prompts[0];
  if (!prompt) return <p className="text-sm text-slate-600">This system has no prompt to bench.</p>;
  const models = (await listModelConfigs(db)).map((m) => ({ id: Number(m.id), name: m.name, provider: m.provider, modelId: m.modelId }));
  const revisions = (await listPromptRevisions(db, prompt.id)).map((r) => ({ id: r.id, number: r.number, message: r.message }));
  const rubric = await activeRubric(db, prompt.id);
  // Which configurations can generate now, and the setting each one that cannot is missing (no key value leaves the server).
  const generators = await generatorModelChoices(db, process.env);
  const [recorded, tags, datasets] = await Promise.all([recordedNames(db, prompt.id), promptTags(db, prompt.id), promptDatasets(db, prompt.id)]);
  return (
    <>
      <NewBenchForm
        key={prompt.id}
        systemId={systemId}
        prompts={prompts.map((p) => ({ id: p.id, name: p.name }))}
        prompt={{ id: prompt.id, name: prompt.name, revisions }}
        models={models}
        recorded={recorded}
        tags={tags}
        datasets={datasets}
        criteria={rubric.map((c) => ({ rule: c.rule, priority: c.priority }))}
        promptChange={sp.change === "1"}
        generators={generators}
      />
    </>
  );
}
