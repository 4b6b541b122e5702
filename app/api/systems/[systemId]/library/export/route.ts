/**
 * Export a prompt's library: `GET /api/systems/[systemId]/library/export?format=csv|jsonl&prompt=NAME`
 * (every prompt when `prompt` is absent). Live cases with their current content; see
 * lib/datasets/library-export.ts for the columns.
 */
import { getDb } from "@/db/client";
import { listCasesForExport } from "@/db/queries/case-export";
import { listCases } from "@/db/queries/cases";
import { CASE_SOURCES, CASE_STATUSES, type CaseSource, type CaseStatus } from "@/lib/library/case-content";
import { getSystem, listPrompts } from "@/db/queries/systems";
import { libraryExportTable } from "@/lib/datasets/library-export";
import { toCsv, toJsonl } from "@/lib/import/export";
import { EXPORT_TYPES, exportFormat, fileResponse } from "@/server/download";
import { guardedRoute } from "@/server/auth/guard";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The library as a CSV or JSONL download. */
export const GET = guardedRoute("viewer", async (request: Request, { params }: { params: Promise<{ systemId: string }> }) => {
  const { systemId } = await params;
  const url = new URL(request.url);
  const format = exportFormat(url);
  if (!format) return new Response("format must be csv or jsonl", { status: 400 });
  const db = getDb();
  if (!(await getSystem(db, systemId))) return new Response("No such system", { status: 404 });
  const promptName = url.searchParams.get("prompt");
  let promptId: number | undefined;
  if (promptName) {
    const prompt = (await listPrompts(db, systemId)).find((p) => p.name === promptName);
    if (!prompt) return new Response(`System ${systemId} has no prompt named ${promptName}`, { status: 404 });
    promptId = prompt.id;
  }
  const source = url.searchParams.get("source") ?? undefined;
  const status = url.searchParams.get("status") ?? undefined;
  const q = url.searchParams.get("q") ?? undefined;
  if (source && !(CASE_SOURCES as readonly string[]).includes(source)) return new Response(`source must be one of ${CASE_SOURCES.join(", ")}`, { status: 400 });
  if (status && !(CASE_STATUSES as readonly string[]).includes(status))
    return new Response(`status must be one of ${CASE_STATUSES.join(", ")}`, { status: 400 });
  let list = await listCasesForExport(db, systemId, promptId);
  if (source || status || q) {
    // The same filters as the Cases tab, so the file holds exactly the cases on screen (all pages).
    const page = await listCases(db, {
      systemId,
      promptId,
      source: source as CaseSource | undefined,
      status: status as CaseStatus | undefined,
      q,
      pageSize: 1_000_000,
    });
    // Case IDs are unique within a prompt's library only: match on prompt and case ID.
    const keep = new Set(page.rows.map((r) => `${r.promptName}\u0000${r.caseKey}`));
    list = list.filter((c) => keep.has(`${c.promptName}\u0000${c.caseKey}`));
  }
  const { columns, rows } = libraryExportTable(list);
  const text = format === "csv" ? toCsv(rows, { columns, bom: true }) + "\r\n" : toJsonl(rows, columns);
  return fileResponse(text, `${systemId}-${promptName ?? "all-prompts"}-library.${format}`, EXPORT_TYPES[format]);
});
