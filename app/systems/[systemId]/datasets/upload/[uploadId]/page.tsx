import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { getUpload } from "@/db/queries/dataset-uploads";
import { datasetNames, getDatasetVersion } from "@/db/queries/datasets";
import { asDatasetError, DatasetError } from "@/lib/datasets/errors";
import { completeMapping } from "@/lib/datasets/prepare";
import { defaultDatasetName } from "@/lib/datasets/schemas";
import type { Corrections } from "@/lib/datasets/types";
import type { DatasetCheck } from "@/lib/datasets/checks";
import type { ColumnMapping } from "@/lib/import/mapping";
import { isImportError } from "@/lib/import/errors";
import { DEFAULT_REDACTION, type RedactionSettings } from "@/lib/import/redact/settings";
import { detectHeaderRow, headerChoices, withHeaderRow } from "@/lib/import/header-row";
import { suggestMapping } from "@/lib/import/suggest";
import type { ImportTable } from "@/lib/import/types";
import { systemTemplateVariables } from "@/server/datasets";
import { importLimitsFromEnv } from "@/server/import-limits";
import { parseBounded } from "@/server/parse-bounded";
import { MapPreview } from "@/components/datasets/map-preview";
import { PageTitle } from "@/components/datasets/page-title";
import { HeaderRowPicker } from "@/components/datasets/header-row-picker";
import { SheetPicker } from "@/components/datasets/sheet-picker";
import { ImportSteps } from "@/components/datasets/steps";
import { NeedsRole } from "@/components/auth/needs-role";
import { pageRoleRefusal } from "@/server/auth/page-guard";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Map and preview" };

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

function Notice({ tone = "amber", children }: { tone?: "amber" | "red"; children: React.ReactNode }) {
  const cls = tone === "red" ? "border-red-300 bg-red-50 text-red-900" : "border-amber-300 bg-amber-50 text-amber-900";
  return (
    <div role="alert" className={`rounded-lg border px-4 py-3 text-sm ${cls}`}>
      {children}
    </div>
  );
}

/** A header choice as the select shows it: where the row is and its first cells. */
function choiceLabel(kind: "line" | "sheetRow", c: { source: number; cells: string[]; asRead: boolean }): string {
  const cells = c.cells.slice(0, 4).map((x) => (x.length > 24 ? `${x.slice(0, 23)}…` : x));
  const text = cells.length === 0 ? "(empty)" : `${cells.join(" | ")}${c.cells.length > 4 ? " | …" : ""}`;
  return `${kind === "line" ? "Line" : "Sheet row"} ${c.source}${c.asRead ? " (first row)" : ""}: ${text}`;
}

/**
 * Map and preview, step 2: parses the stored upload on the server (bounded), offers the worksheet
 * choice for workbooks and the header row for CSV and worksheets (detected below a title unless
 * `?header=N` names it; 0 = the first row), and hands the table to the Map and preview component.
 * `?from=D:V` starts from version V of dataset D (Correct in a new version).
 */
export default async function MapPage({
  params,
  searchParams,
}: {
  params: Promise<{ systemId: string; uploadId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { systemId, uploadId } = await params;
  const refused = await pageRoleRefusal("editor", "Mapping and saving an upload");
  if (refused) return <NeedsRole refusal={refused} back={{ href: `/systems/${systemId}/datasets`, label: "Datasets" }} />;
  const sp = await searchParams;
  const sheetParam = first(sp.sheet) || undefined;
  const headerParam = /^\d{1,9}$/.test(first(sp.header) ?? "") ? Number(first(sp.header)) : undefined;
  const from = /^(\d{1,9}):(\d{1,9})$/.exec(first(sp.from) ?? "");
  const base = `/systems/${systemId}/datasets`;
  const db = getDb();
  const upload = /^\d{1,9}$/.test(uploadId) ? await getUpload(db, systemId, Number(uploadId)) : null;
  if (!upload) {
    return (
      <div className="flex flex-col gap-4">
        <PageTitle title="Map and preview" back={{ href: base, label: "Datasets" }} />
        <Notice>
          This upload was already saved or has expired (unsaved uploads are kept for a day).{" "}
          <Link href={`${base}/upload`} className="font-medium underline">
            Upload the file again
          </Link>
          .
        </Notice>
      </div>
    );
  }

  let parsed: ImportTable | null = null;
  let table: ImportTable | null = null;
  let refusal: string | null = null;
  let headerNotice: string | null = null;
  let detected: number | null = null;
  let sheets: { name: string; hidden: boolean }[] = [];
  try {
    parsed = await parseBounded(new Uint8Array(upload.fileBytes), upload.fileName, { sheet: sheetParam, limits: importLimitsFromEnv() });
    detected = headerParam === undefined && !parsed.needsSheet ? detectHeaderRow(parsed) : null;
    try {
      table = withHeaderRow(parsed, headerParam ?? detected ?? 0);
    } catch (e) {
      if (!isImportError(e)) throw e;
      headerNotice = `${e.message} The first row is used.`;
      table = parsed;
    }
  } catch (e) {
    const err = asDatasetError(e);
    if (!(err instanceof DatasetError)) throw e;
    refusal = err.message;
    if (err.code === "sheet_not_found") {
      // Offer the sheets again so the user can pick an existing one.
      const retry = await parseBounded(new Uint8Array(upload.fileBytes), upload.fileName, { limits: importLimitsFromEnv() }).catch(() => null);
      sheets = retry?.sheets ?? [];
    }
  }
  sheets = table?.sheets ?? sheets;
  const hrefFor = (sheet: string) => {
    const q = new URLSearchParams({ sheet });
    if (from) q.set("from", `${from[1]}:${from[2]}`);
    return `${base}/upload/${upload.id}?${q}`;
  };
  const headerHref = (header: number) => {
    const q = new URLSearchParams();
    if (table?.sheet) q.set("sheet", table.sheet);
    if (from) q.set("from", `${from[1]}:${from[2]}`);
    q.set("header", String(header));
    return `${base}/upload/${upload.id}?${q}`;
  };
  // 0 = the first row (as read); else the line or sheet row of the header.
  const headerRow = table && parsed && table.headerSource !== parsed.headerSource ? (table.headerSource ?? 0) : 0;
  const choices = parsed && !parsed.needsSheet && parsed.rows.length > 0 ? headerChoices(parsed) : [];
  const where = (n: number) => `${parsed?.sourceKind === "sheetRow" ? "Sheet row" : "Line"} ${n}`;
  const source = from ? await getDatasetVersion(db, systemId, Number(from[1]), Number(from[2])) : null;
  const vars = await systemTemplateVariables(db, systemId);
  const existing = await datasetNames(db, systemId);
  const describe = table
    ? [
        table.format.toUpperCase(),
        table.encoding,
        table.delimiter ? `delimiter ${table.delimiter === "\t" ? "tab" : `“${table.delimiter}”`}` : null,
        table.needsSheet ? null : `${table.rows.length.toLocaleString("en-US")} data row${table.rows.length === 1 ? "" : "s"}`,
      ]
        .filter(Boolean)
        .join(" · ")
    : "";

  let initial: {
    name: string;
    mapping: ColumnMapping;
    corrections: Corrections;
    excludedRows: number[];
    redaction: RedactionSettings;
    checks?: DatasetCheck[];
  } | null = null;
  if (table && !table.needsSheet) {
    const sameColumns = source && source.columns.length === table.columns.length && source.columns.every((c, i) => c === table!.columns[i]);
    const name = source?.datasetName ?? defaultDatasetName(upload.fileName);
    // A new version starts from its dataset's redaction settings (the source version's, or the latest one's).
    const redaction = source?.redaction.settings ?? existing.find((d) => d.name === name)?.redaction ?? { ...DEFAULT_REDACTION, keep: [] };
    initial = sameColumns
      ? {
          name: source.datasetName,
          mapping: source.mapping,
          corrections: source.corrections,
          excludedRows: source.excludedRows,
          redaction,
          checks: source.checks,
        }
      : {
          name,
          mapping: completeMapping(table.columns, suggestMapping(table.columns, { templateVariables: vars, sampleRows: table.rows.slice(0, 20) })),
          corrections: {},
          excludedRows: [],
          redaction,
        };
  }

  return (
    <div className="flex flex-col gap-4">
      <PageTitle title={`Map and preview: ${upload.fileName}`} back={{ href: base, label: "Datasets" }}>
        {describe}
        {source ? (
          <span className="ml-2 text-slate-500">
            Starting from version {source.version} of “{source.datasetName}” (its mapping, corrections and exclusions).
          </span>
        ) : null}
      </PageTitle>
      <ImportSteps current={2} />
      {refusal ? (
        <Notice tone="red">
          {refusal} Nothing was stored.{" "}
          <Link href={`${base}/upload`} className="font-medium underline">
            Upload another file
          </Link>
          .
        </Notice>
      ) : null}
      {sheets.length > 0 ? (
        <div className="flex flex-wrap items-end gap-4 rounded-lg border border-slate-200 bg-white px-4 py-3">
          <SheetPicker sheets={sheets} sheet={table?.sheet ?? null} hrefFor={Object.fromEntries(sheets.map((s) => [s.name, hrefFor(s.name)]))} />
          <p className="pb-2 text-xs text-slate-500">
            {sheets.length} worksheet{sheets.length === 1 ? "" : "s"}
            {sheets.some((s) => s.hidden) ? `, of which ${sheets.filter((s) => s.hidden).length} hidden (marked)` : ""}.
          </p>
        </div>
      ) : null}
      {table?.needsSheet ? <Notice>This workbook has several visible worksheets. Choose the one that holds the cases.</Notice> : null}
      {choices.length > 1 ? (
        <div className="flex flex-wrap items-end gap-4 rounded-lg border border-slate-200 bg-white px-4 py-3">
          <HeaderRowPicker
            value={String(headerRow)}
            choices={choices.map((c) => ({
              value: c.asRead ? "0" : String(c.source),
              label: choiceLabel(parsed!.sourceKind, c),
              href: headerHref(c.asRead ? 0 : c.source),
            }))}
          />
          <p className="pb-2 text-xs text-slate-500">
            The row that holds the column names; rows above it are left out (and listed under “While reading the file”).
          </p>
        </div>
      ) : null}
      {detected !== null ? (
        <Notice>
          {where(detected)} is used as the header: the row{detected - (parsed?.headerSource ?? 1) > 1 ? "s" : ""} above it look like a title. If that is wrong,
          choose another header row.
        </Notice>
      ) : null}
      {headerNotice ? <Notice>{headerNotice}</Notice> : null}
      {table && initial ? (
        <MapPreview
          key={`${table.sheet ?? ""}:${headerRow}`}
          systemId={systemId}
          uploadId={upload.id}
          sheet={table.sheet ?? null}
          headerRow={headerRow}
          table={table}
          templateVariables={vars}
          existing={existing}
          initial={initial}
        />
      ) : null}
    </div>
  );
}
