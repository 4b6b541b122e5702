import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { listDatasets } from "@/db/queries/datasets";
import { importLimitsFromEnv } from "@/server/import-limits";
import { DatasetsTable } from "@/components/datasets/datasets-table";
import { LimitsNote } from "@/components/datasets/limits-note";
import { LinkButton } from "@/components/datasets/link-button";
import { PageTitle } from "@/components/datasets/page-title";
import { IfRole } from "@/components/auth/role-context";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Datasets" };

/** Datasets of a system: every dataset with its versions, and Upload cases. */
export default async function DatasetsPage({ params }: { params: Promise<{ systemId: string }> }) {
  const { systemId } = await params;
  const base = `/systems/${systemId}/datasets`;
  const datasets = await listDatasets(getDb(), systemId);
  const limits = importLimitsFromEnv();
  return (
    <div className="flex flex-col gap-4">
      <PageTitle
        title="Datasets"
        actions={
          <IfRole>
            <LinkButton href={`${base}/upload`} variant="primary">
              Upload cases
            </LinkButton>
          </IfRole>
        }
      >
        Uploaded tables of cases. Each save is an immutable version; use a version to add its rows to a prompt&apos;s library as golden cases.
      </PageTitle>
      <section aria-label="Datasets" className="rounded-lg border border-slate-200 bg-white">
        {datasets.length === 0 ? (
          <div className="flex flex-col items-center gap-3 p-10 text-center">
            <p className="text-sm text-slate-700">No datasets yet. Upload a CSV, Excel, JSON or JSON Lines file of test cases to start.</p>
            <LimitsNote maxBytes={limits.maxBytes} maxRows={limits.maxRows} />
          </div>
        ) : (
          <DatasetsTable datasets={datasets} base={base} />
        )}
      </section>
    </div>
  );
}
