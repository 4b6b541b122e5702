import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { listUploads } from "@/db/queries/dataset-uploads";
import { importLimitsFromEnv } from "@/server/import-limits";
import { uploadQuotaFromEnv } from "@/server/upload-limits";
import { UnsavedUploads } from "@/components/datasets/unsaved-uploads";
import { UploadForm } from "@/components/datasets/upload-form";
import { LimitsNote } from "@/components/datasets/limits-note";
import { ImportSteps } from "@/components/datasets/steps";
import { PageTitle } from "@/components/datasets/page-title";
import { NeedsRole } from "@/components/auth/needs-role";
import { pageRoleRefusal } from "@/server/auth/page-guard";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Upload cases" };

/** Upload cases, step 1: choose a file (limits shown); the route handler parses and stores it. */
export default async function UploadPage({ params }: { params: Promise<{ systemId: string }> }) {
  const { systemId } = await params;
  const refused = await pageRoleRefusal("editor", "Uploading cases");
  if (refused) return <NeedsRole refusal={refused} back={{ href: `/systems/${systemId}/datasets`, label: "Datasets" }} />;
  const limits = importLimitsFromEnv();
  const uploads = await listUploads(getDb(), systemId);
  return (
    <div className="flex flex-col gap-4">
      <PageTitle title="Upload cases" back={{ href: `/systems/${systemId}/datasets`, label: "Datasets" }}>
        Import test cases from a spreadsheet or a log. Every cell is read as text, exactly as in the file.
      </PageTitle>
      <ImportSteps current={1} />
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_340px]">
        <section aria-label="Choose a file" className="rounded-lg border border-slate-200 bg-white p-5">
          <UploadForm systemId={systemId} maxBytes={limits.maxBytes} />
          <div className="mt-4">
            <LimitsNote maxBytes={limits.maxBytes} maxRows={limits.maxRows} />
          </div>
        </section>
        {/* A server component renders once per request: the request's time is what "expires in" counts from. */}
        {/* eslint-disable-next-line react-hooks/purity */}
        <UnsavedUploads systemId={systemId} uploads={uploads} quota={uploadQuotaFromEnv()} now={Date.now()} />
        <aside aria-label="Accepted files" className="rounded-lg border border-slate-200 bg-white p-5 text-sm text-slate-700">
          <h2 className="text-sm font-semibold text-slate-900">Accepted files</h2>
          <ul className="mt-2 flex list-disc flex-col gap-1.5 pl-4 text-xs">
            <li>
              <strong>CSV / TSV</strong>: any delimiter (comma, semicolon, tab, pipe), a header row, UTF-8 or UTF-16 (with or without BOM) or Windows-1252,
              quoted line breaks.
            </li>
            <li>
              <strong>Excel (.xlsx)</strong>: you choose the worksheet when there are several; hidden sheets are marked.
            </li>
            <li>
              <strong>JSON</strong>: an array of objects, or an object holding one such array.
            </li>
            <li>
              <strong>JSON Lines</strong>: one object per line.
            </li>
          </ul>
          <p className="mt-3 text-xs text-slate-500">
            Next you map the columns (input, expected result, history, recorded outputs, variables, …), fix rows with problems and check what will be redacted.
          </p>
        </aside>
      </div>
    </div>
  );
}
