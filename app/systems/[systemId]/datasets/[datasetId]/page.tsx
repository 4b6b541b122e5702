import { notFound, redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { listDatasets } from "@/db/queries/datasets";

export const dynamic = "force-dynamic";

/** A dataset's own URL opens its latest version. */
export default async function DatasetPage({ params }: { params: Promise<{ systemId: string; datasetId: string }> }) {
  const { systemId, datasetId } = await params;
  const d = (await listDatasets(getDb(), systemId)).find((x) => String(x.id) === datasetId);
  if (!d || d.versions.length === 0) notFound();
  redirect(`/systems/${systemId}/datasets/${d.id}/versions/${d.versions[0].version}`);
}
