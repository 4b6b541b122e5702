/**
 * Upload cases: `POST /api/systems/[systemId]/uploads?name=FILE` with the file's bytes as the body.
 * The size limit is enforced from Content-Length and again while reading (never more than the
 * limit is buffered); the file is parsed on the server by lib/import in a bounded worker; only an
 * accepted file is stored (in `dataset_uploads`, kept a day). Answers
 * `{ ok: true, data: UploadAccepted }` or `{ ok: false, error: { code, message } }`.
 */
import { NextResponse } from "next/server";
import { getDb } from "@/db/client";
import { createUpload, deleteStaleUploads } from "@/db/queries/dataset-uploads";
import { getSystem } from "@/db/queries/systems";
import { asDatasetError, DatasetError } from "@/lib/datasets/errors";
import { countProblems } from "@/lib/datasets/labels";
import type { UploadAccepted } from "@/lib/datasets/types";
import { formatBytes, formatCount } from "@/lib/import/errors";
import { importLimitsFromEnv } from "@/server/import-limits";
import { inspectBounded } from "@/server/parse-bounded";
import { readBodyWithLimit } from "@/server/read-body";
import { systemTemplateVariables } from "@/server/datasets";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

function refuse(status: number, code: string, message: string) {
  return NextResponse.json({ ok: false, error: { code, message } }, { status });
}

/** A file name safe to store and show: no path, no control characters, at most 255 characters. */
function cleanFileName(raw: string | null): string {
  // eslint-disable-next-line no-control-regex
  const base = (raw ?? "").replace(/^.*[\\/]/, "").replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return base.slice(0, 255);
}

/** Accepts one file (see the module comment). */
export async function POST(request: Request, { params }: { params: Promise<{ systemId: string }> }) {
  const { systemId } = await params;
  const db = getDb();
  if (!(await getSystem(db, systemId))) return refuse(404, "not_found", `There is no system "${systemId}".`);
  const fileName = cleanFileName(new URL(request.url).searchParams.get("name"));
  if (!fileName) return refuse(400, "validation", "The upload has no file name. Choose a file and upload it again.");
  const limits = importLimitsFromEnv();
  const tooLarge = (size?: number) =>
    refuse(
      413,
      "too_large",
      size === undefined
        ? `${fileName} is larger than the limit of ${formatBytes(limits.maxBytes)} (${formatCount(limits.maxBytes)} bytes). Split the file or remove rows, then upload it again.`
        : `${fileName} is ${formatBytes(size)} (${formatCount(size)} bytes); the limit is ${formatBytes(limits.maxBytes)} (${formatCount(limits.maxBytes)} bytes). Split the file or remove rows, then upload it again.`,
    );
  const declared = Number(request.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > limits.maxBytes) return tooLarge(declared);
  const bytes = await readBodyWithLimit(request.body, limits.maxBytes);
  if (!bytes) return tooLarge();
  if (bytes.byteLength === 0) return refuse(400, "empty_file", `${fileName} is empty.`);

  await deleteStaleUploads(db);
  let inspection;
  try {
    inspection = await inspectBounded(bytes, fileName, { limits, templateVariables: await systemTemplateVariables(db, systemId) });
  } catch (e) {
    const err = asDatasetError(e);
    if (err instanceof DatasetError) return refuse(422, err.code, err.message);
    console.error(e);
    return refuse(500, "internal", "Something went wrong on the server; nothing was stored. The error is in the server log.");
  }
  const uploadId = await createUpload(db, { systemId, fileName, bytes, sheet: inspection.sheet ?? null });
  const counts = countProblems(inspection.problems);
  const data: UploadAccepted = {
    uploadId,
    href: `/systems/${systemId}/datasets/upload/${uploadId}${inspection.sheet ? `?sheet=${encodeURIComponent(inspection.sheet)}` : ""}`,
    fileName,
    format: inspection.format,
    needsSheet: Boolean(inspection.needsSheet),
    sheets: inspection.sheets ?? [],
    sheet: inspection.sheet ?? null,
    columns: inspection.columns,
    rowCount: inspection.rowCount,
    errorCount: counts.errors,
    warningCount: counts.warnings,
  };
  return NextResponse.json({ ok: true, data }, { status: 201 });
}
