import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { datasetVersionUsage, getDatasetVersion, planDatasetUseForPrompts } from "@/db/queries/datasets";
import { storedTable } from "@/lib/datasets/stored-table";
import { planUse } from "@/lib/datasets/use-plan";
import { formatBytes } from "@/lib/import/errors";
import { CorrectVersionButton } from "@/components/datasets/correct-version-button";
import { LinkButton } from "@/components/datasets/link-button";
import { MappingView } from "@/components/datasets/mapping-view";
import { PageTitle } from "@/components/datasets/page-title";
import { ProblemsList } from "@/components/datasets/problems-list";
import { RedactionView } from "@/components/datasets/redaction-view";
import { Section } from "@/components/datasets/section";
import { UseDatasetForm, type UseOption } from "@/components/datasets/use-dataset-form";
import { DATASET_CHECK_LABEL } from "@/lib/datasets/checks";
import { ROW_FILTERS, VersionRows, type RowFilter } from "@/components/datasets/version-rows";
import { Badge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import { IfRole } from "@/components/auth/role-context";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Dataset version" };

const PAGE_SIZE = 25;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** A saved dataset version: mapping, redaction report, problems, paged rows, exports and Use a dataset. */
export default async function VersionPage({
  params,
  searchParams,
}: {
  params: Promise<{ systemId: string; datasetId: string; version: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { systemId, datasetId, version } = await params;
  const sp = await searchParams;
  if (!/^\d{1,9}$/.test(datasetId) || !/^\d{1,9}$/.test(version)) notFound();
  const db = getDb();
  const v = await getDatasetVersion(db, systemId, Number(datasetId), Number(version));
  if (!v) notFound();
  const base = `/systems/${systemId}/datasets`;
  const here = `${base}/${v.datasetId}/versions/${v.version}`;

  // Row status: blocked (for any prompt), excluded, corrected.
  const plan = planUse(storedTable(v, v.columns, v.records), v.mapping, v.excludedRows, []);
  const status: Record<number, ("blocked" | "excluded" | "corrected")[]> = {};
  const mark = (row: number, s: "blocked" | "excluded" | "corrected") => (status[row] = [...(status[row] ?? []), s]);
  for (const b of plan.blocked) mark(b.row, "blocked");
  for (const r of v.excludedRows) mark(r, "excluded");
  for (const r of Object.keys(v.corrections)) mark(Number(r), "corrected");
  const all = v.records.map((_, i) => i + 1);
  const byFilter: Record<RowFilter, number[]> = {
    all,
    blocked: all.filter((n) => status[n]?.includes("blocked")),
    excluded: all.filter((n) => status[n]?.includes("excluded")),
    corrected: all.filter((n) => status[n]?.includes("corrected")),
  };
  const show = (ROW_FILTERS as readonly string[]).includes(first(sp.show) ?? "") ? (first(sp.show) as RowFilter) : "all";
  const list = byFilter[show];
  const pageCount = Math.max(1, Math.ceil(list.length / PAGE_SIZE));
  const page = Math.min(Math.max(1, Number(first(sp.page)) || 1), pageCount);
  const pageRows = list.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const hrefFor = (c: { page?: number; show?: RowFilter }) => {
    const q = new URLSearchParams();
    const s = c.show ?? show;
    const p = c.page ?? page;
    if (s !== "all") q.set("show", s);
    if (p > 1) q.set("page", String(p));
    const qs = q.toString();
    return `${here}${qs ? `?${qs}` : ""}#rows`;
  };

  const previews = await planDatasetUseForPrompts(db, { systemId, datasetId: v.datasetId, version: v.version });
  const options: UseOption[] = previews.map((p) => ({
    promptId: p.promptId,
    promptName: p.promptName,
    willAdd: p.willAdd,
    blockedCount: p.blocked.length,
    blocked: p.blocked.slice(0, 20),
    warningCount: p.warnings.length,
    warnings: p.warnings.slice(0, 10),
    mappingErrors: p.mappingErrors,
    conflictCount: p.conflicts.length,
    conflicts: p.conflicts.slice(0, 10),
    collisionChoices: p.collisionChoices,
    alreadyAdded: p.alreadyAdded,
    checks: p.checks.map((c) => DATASET_CHECK_LABEL[c.kind]),
  }));
  const usage = await datasetVersionUsage(db, systemId, v.datasetId, v.version);
  const how = [
    v.format.toUpperCase(),
    v.encoding,
    v.delimiter ? `delimiter ${v.delimiter === "\t" ? "tab" : `“${v.delimiter}”`}` : null,
    v.sheet ? `sheet “${v.sheet}”` : null,
    v.headerRow ? `header on ${v.format === "xlsx" ? "sheet row" : "line"} ${v.headerRow}` : null,
  ]
    .filter(Boolean)
    .join(" · ");
  const latest = v.versions[0]?.version ?? v.version;
  const exportHref = (f: string) => `/api/systems/${systemId}/datasets/${v.datasetId}/versions/${v.version}/export?format=${f}`;

  return (
    <div className="flex flex-col gap-4">
      <PageTitle
        title={`${v.datasetName} · version ${v.version}`}
        back={{ href: base, label: "Datasets" }}
        actions={
          <>
            <LinkButton href={exportHref("csv")} download title="Rows as stored (redacted), excluded rows left out">
              Export CSV
            </LinkButton>
            <LinkButton href={exportHref("jsonl")} download title="Rows as stored (redacted), excluded rows left out">
              Export JSONL
            </LinkButton>
            <IfRole>
              <CorrectVersionButton systemId={systemId} datasetId={v.datasetId} version={v.version} label="New version from this file" size="md" />
            </IfRole>
          </>
        }
      >
        <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <span className="font-mono text-xs">{v.fileName}</span>
          <span className="text-xs text-slate-500">
            {how} · {formatBytes(v.fileSize)} · {v.rowCount.toLocaleString("en-US")} rows · saved <LocalTime ms={v.createdAt} />
            {v.authorEmail ? <> by {v.authorEmail}</> : null}
          </span>
          {v.version === latest ? <Badge tone="green">latest</Badge> : <Badge tone="amber">version {latest} is newer</Badge>}
        </span>
      </PageTitle>

      <nav aria-label="Versions" className="flex flex-wrap items-center gap-1 text-sm">
        <span className="mr-1 text-xs text-slate-500">Versions:</span>
        {v.versions.map((x) => (
          <Link
            key={x.version}
            href={`${base}/${v.datasetId}/versions/${x.version}`}
            aria-current={x.version === v.version ? "page" : undefined}
            title={x.authorEmail ? `saved by ${x.authorEmail}` : undefined}
            className={`rounded-md px-2 py-0.5 text-xs ring-1 ring-inset ${x.version === v.version ? "bg-indigo-600 text-white ring-indigo-600" : "bg-white text-slate-700 ring-slate-300 hover:bg-slate-50"}`}
          >
            v{x.version}
          </Link>
        ))}
        {usage.length > 0 ? (
          <span className="ml-3 text-xs text-slate-600">
            In the library of{" "}
            {usage.map((u, i) => (
              <span key={u.promptId}>
                {i > 0 ? ", " : ""}
                <Link
                  href={`/systems/${systemId}/library?source=dataset&prompt=${encodeURIComponent(u.promptName)}`}
                  className="text-indigo-700 hover:underline"
                >
                  {u.promptName}
                </Link>{" "}
                ({u.count.toLocaleString("en-US")} cases)
              </span>
            ))}
          </span>
        ) : null}
      </nav>

      <div className="grid items-start gap-4 xl:grid-cols-[minmax(0,1fr)_380px]">
        <div className="flex min-w-0 flex-col gap-4">
          <div className="grid gap-4 lg:grid-cols-2">
            <Section id="mapping" title="Mapping">
              <MappingView mapping={v.mapping} />
            </Section>
            <Section id="redaction" title="Redaction report" description="Replaced in every column on save; the original file is kept as uploaded.">
              <RedactionView report={v.redaction} saved />
            </Section>
          </div>
          <Section id="problems" title="Problems">
            <ProblemsList problems={v.problems} />
          </Section>
          <Section
            id="rows"
            title={`Rows (${v.rowCount.toLocaleString("en-US")})`}
            description={`As stored: corrections applied and personal data redacted.${v.excludedRows.length ? ` ${v.excludedRows.length} excluded row(s) are kept but never become cases.` : ""}`}
          >
            <VersionRows
              columns={v.columns}
              mapping={v.mapping}
              records={pageRows.map((n) => v.records[n - 1])}
              rowNumbers={pageRows}
              status={status}
              filter={show}
              counts={{ all: all.length, blocked: byFilter.blocked.length, excluded: byFilter.excluded.length, corrected: byFilter.corrected.length }}
              page={page}
              pageSize={PAGE_SIZE}
              total={list.length}
              hrefFor={hrefFor}
            />
          </Section>
        </div>
        <div className="xl:sticky xl:top-4">
          <IfRole>
            <UseDatasetForm
              systemId={systemId}
              datasetId={v.datasetId}
              version={v.version}
              options={options}
              correct={<CorrectVersionButton systemId={systemId} datasetId={v.datasetId} version={v.version} />}
            />
          </IfRole>
        </div>
      </div>
    </div>
  );
}
