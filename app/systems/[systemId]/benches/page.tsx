import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { listBenches } from "@/db/queries/benches";
import { listPrompts } from "@/db/queries/systems";
import { BenchHistory } from "@/components/benches/bench-history";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Benches" };

export default async function BenchesPage({
  params,
  searchParams,
}: {
  params: Promise<{ systemId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { systemId } = await params;
  const sp = await searchParams;
  const db = getDb();
  const prompts = await listPrompts(db, systemId);
  const promptName = typeof sp.prompt === "string" ? sp.prompt : undefined;
  const prompt = prompts.find((p) => p.name === promptName);
  const benches = await listBenches(db, systemId, prompt?.id);
  return <BenchHistory systemId={systemId} benches={benches} prompts={prompts.map((p) => p.name)} prompt={prompt?.name} />;
}
