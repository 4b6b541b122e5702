/**
 * Export a dataset version: `GET …/versions/[version]/export?format=csv|jsonl`. The rows as stored
 * (corrected and redacted), excluded rows left out, columns in file order. CSV cells starting with
 * `=`, `+`, `-`, `@` are escaped (lib/import toCsv).
 */
import { getDb } from "@/db/client";
import { getDatasetVersion } from "@/db/queries/datasets";
import { toCsv, toJsonl } from "@/lib/import/export";
import { EXPORT_TYPES, exportFormat, fileResponse } from "@/server/download";
import { guardedRoute } from "@/server/auth/guard";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The version's rows as a CSV or JSONL download. */
export const GET = guardedRoute(
  "viewer",
  async (request: Request, { params }: { params: Promise<{ systemId: string; datasetId: string; version: string }> }) => {
    const { systemId, datasetId, version } = await params;
    const format = exportFormat(new URL(request.url));
    if (!format) return new Response("format must be csv or jsonl", { status: 400 });
    const v = /^\d{1,9}$/.test(datasetId) && /^\d{1,9}$/.test(version) ? await getDatasetVersion(getDb(), systemId, Number(datasetId), Number(version)) : null;
    if (!v) return new Response("No such dataset version", { status: 404 });
    const excluded = new Set(v.excludedRows);
    const rows = v.records.filter((_, i) => !excluded.has(i + 1));
    const text = format === "csv" ? toCsv(rows, { columns: v.columns, bom: true }) + "\r\n" : toJsonl(rows, v.columns);
    return fileResponse(text, `${v.datasetName}-v${v.version}.${format}`, EXPORT_TYPES[format]);
  },
);
