/**
 * Upload cases: `POST /api/systems/[systemId]/uploads?name=FILE` with the file's bytes as the body.
 * The workflow is server/uploads.ts: the size limit is enforced from Content-Length and again
 * while reading (never more than the limit is buffered); uploads at once and per minute are
 * bounded (503 / 429 with Retry-After); the file is parsed on the server by lib/import in a
 * bounded worker; only an accepted file is stored (in `dataset_uploads`, kept a day, within the
 * system's quota: 409). Answers `{ ok: true, data: UploadAccepted }` or
 * `{ ok: false, error: { code, message } }`.
 */
import { NextResponse } from "next/server";
import { getDb } from "@/db/client";
import { getSystem } from "@/db/queries/systems";
import type { UploadAccepted } from "@/lib/datasets/types";
import { receiveUpload } from "@/server/uploads";
import { guardedRoute } from "@/server/auth/guard";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

function refuse(status: number, code: string, message: string, retryAfterSeconds?: number) {
  const headers = retryAfterSeconds === undefined ? undefined : { "Retry-After": String(retryAfterSeconds) };
  return NextResponse.json({ ok: false, error: { code, message } }, { status, headers });
}

/** A file name safe to store and show: no path, no control characters, at most 255 characters. */
function cleanFileName(raw: string | null): string {
  const base = (raw ?? "")
    .replace(/^.*[\\/]/, "")
    // eslint-disable-next-line no-control-regex -- control characters are what this removes
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim();
  return base.slice(0, 255);
}

/** Accepts one file (see the module comment). */
export const POST = guardedRoute("editor", async (request: Request, { params }: { params: Promise<{ systemId: string }> }) => {
  const { systemId } = await params;
  const db = getDb();
  if (!(await getSystem(db, systemId))) return refuse(404, "not_found", `There is no system "${systemId}".`);
  const fileName = cleanFileName(new URL(request.url).searchParams.get("name"));
  if (!fileName) return refuse(400, "validation", "The upload has no file name. Choose a file and upload it again.");
  const length = request.headers.get("content-length");
  const outcome = await receiveUpload(db, { systemId, fileName, declaredLength: length === null ? null : Number(length), body: request.body });
  if (!outcome.ok) return refuse(outcome.status, outcome.code, outcome.message, outcome.retryAfterSeconds);
  const data: UploadAccepted = outcome.data;
  return NextResponse.json({ ok: true, data }, { status: 201 });
});
