/**
 * Upload cases, the workflow behind `POST /api/systems/[systemId]/uploads` (the route only checks
 * the system and the file name): refuse a declared length over the byte limit; take a place in
 * the {@link UploadGate} (uploads at once and per minute; refused at once with 503/429 and
 * Retry-After, never queued); read the body with the byte limit and a deadline; parse it in the bounded worker;
 * store the accepted file within the system's quota of unsaved uploads. Nothing is stored unless
 * every step passed.
 */
import type { Db } from "@/db/client";
import { createUploadWithinQuota, deleteStaleUploads, UPLOAD_TTL_MS, type UploadQuota } from "@/db/queries/dataset-uploads";
import { getSystem } from "@/db/queries/systems";
import { asDatasetError, DatasetError } from "@/lib/datasets/errors";
import { countProblems } from "@/lib/datasets/labels";
import type { UploadAccepted } from "@/lib/datasets/types";
import type { UploadGate } from "@/lib/datasets/upload-gate";
import { formatBytes, formatCount } from "@/lib/import/errors";
import type { ImportLimits } from "@/lib/import/limits";
import { systemTemplateVariables } from "./datasets";
import { importLimitsFromEnv } from "./import-limits";
import { inspectBounded, type ParseBounds } from "./parse-bounded";
import { readBodyWithLimit } from "./read-body";
import { uploadGate, uploadQuotaFromEnv } from "./upload-limits";

/** One upload as the route receives it. `declaredLength`: the Content-Length header (null when absent). */
export interface IncomingUpload {
  systemId: string;
  fileName: string;
  declaredLength: number | null;
  body: ReadableStream<Uint8Array> | null;
}

/** What the workflow uses besides the database (tests pass their own). */
export interface UploadDeps {
  gate: UploadGate;
  limits: ImportLimits;
  quota: UploadQuota;
  /** The clock, in ms (expiry of old uploads). */
  now: () => number;
  /** Most time the body may take to arrive, in ms (default {@link BODY_TIMEOUT_MS}). */
  bodyTimeoutMs?: number;
  bounds?: ParseBounds;
}

/**
 * Most time an upload's body may take to arrive: a client sending slowly would otherwise hold one
 * of the few upload slots as long as it likes. 4 MB in 60 s needs about 0.6 Mbit/s.
 */
export const BODY_TIMEOUT_MS = 60_000;

/** The route's answer: the accepted upload, or the HTTP status, code and message of the refusal. */
export type UploadOutcome = { ok: true; data: UploadAccepted } | { ok: false; status: number; code: string; message: string; retryAfterSeconds?: number };

/** The server's gate, the limits and quota from the environment, and the real clock. */
export function defaultUploadDeps(): UploadDeps {
  return { gate: uploadGate(), limits: importLimitsFromEnv(), quota: uploadQuotaFromEnv(), now: Date.now };
}

/**
 * Receives one upload (see the module comment).
 * @param db the database; the system must exist
 * @param upload the file's name, declared length and body
 * @param deps gate, limits, quota, clock
 * @returns 201-worthy data, or a refusal: 413 `too_large`, 503 `busy` / 429 `rate_limited` (with
 *   `retryAfterSeconds`), 408 `body_timeout`, 400 `empty_file`, 422 with the importer's code (`part_too_large`,
 *   `zip_bomb`, `parse_timeout`, …), 409 `upload_quota`, 500 `internal`
 */
export async function receiveUpload(db: Db, upload: IncomingUpload, deps: UploadDeps = defaultUploadDeps()): Promise<UploadOutcome> {
  const { fileName } = upload;
  const { limits } = deps;
  const tooLarge = (size?: number): UploadOutcome => ({
    ok: false,
    status: 413,
    code: "too_large",
    message:
      size === undefined
        ? `${fileName} is larger than the limit of ${formatBytes(limits.maxBytes)} (${formatCount(limits.maxBytes)} bytes). Split the file or remove rows, then upload it again.`
        : `${fileName} is ${formatBytes(size)} (${formatCount(size)} bytes); the limit is ${formatBytes(limits.maxBytes)} (${formatCount(limits.maxBytes)} bytes). Split the file or remove rows, then upload it again.`,
  });
  // Refused before taking a place: it costs nothing to read.
  if (upload.declaredLength !== null && upload.declaredLength > limits.maxBytes) return tooLarge(upload.declaredLength);

  const admission = deps.gate.tryEnter();
  if (!admission.ok) {
    return {
      ok: false,
      status: admission.status,
      code: admission.reason === "busy" ? "busy" : "rate_limited",
      message: admission.message,
      retryAfterSeconds: admission.retryAfterSeconds,
    };
  }
  try {
    const timeoutMs = deps.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
    let bytes: Uint8Array | null;
    try {
      bytes = await readBodyWithLimit(upload.body, limits.maxBytes, AbortSignal.timeout(timeoutMs));
    } catch (e) {
      if ((e as Error | undefined)?.name !== "TimeoutError") throw e;
      const seconds = Math.max(1, Math.round(timeoutMs / 1000));
      return {
        ok: false,
        status: 408,
        code: "body_timeout",
        message: `${fileName} did not arrive within ${seconds} s, so the upload was stopped. Nothing was stored; check the connection and upload the file again.`,
      };
    }
    if (!bytes) return tooLarge();
    if (bytes.byteLength === 0) return { ok: false, status: 400, code: "empty_file", message: `${fileName} is empty.` };
    let inspection;
    let uploadId: number;
    try {
      inspection = await inspectBounded(bytes, fileName, { limits, templateVariables: await systemTemplateVariables(db, upload.systemId) }, deps.bounds);
      uploadId = await storeUpload(db, { systemId: upload.systemId, fileName, bytes, sheet: inspection.sheet ?? null }, deps.quota, deps.now());
    } catch (e) {
      const err = asDatasetError(e);
      if (err instanceof DatasetError) return { ok: false, status: err.code === "upload_quota" ? 409 : 422, code: err.code, message: err.message };
      console.error(e);
      return { ok: false, status: 500, code: "internal", message: "Something went wrong on the server; nothing was stored. The error is in the server log." };
    }
    const counts = countProblems(inspection.problems);
    return {
      ok: true,
      data: {
        uploadId,
        href: `/systems/${upload.systemId}/datasets/upload/${uploadId}${inspection.sheet ? `?sheet=${encodeURIComponent(inspection.sheet)}` : ""}`,
        fileName,
        format: inspection.format,
        needsSheet: Boolean(inspection.needsSheet),
        sheets: inspection.sheets ?? [],
        sheet: inspection.sheet ?? null,
        columns: inspection.columns,
        rowCount: inspection.rowCount,
        errorCount: counts.errors,
        warningCount: counts.warnings,
      },
    };
  } finally {
    admission.release();
  }
}

/**
 * Stores an upload within the system's quota of unsaved uploads, after deleting expired ones.
 * @param now the current time in ms
 * @returns the upload id
 * @throws DatasetError `upload_quota` (nothing stored) naming the quota, what the system holds,
 *   what to do, and when the oldest upload expires
 */
export async function storeUpload(
  db: Db,
  u: { systemId: string; fileName: string; bytes: Uint8Array; sheet?: string | null },
  quota: UploadQuota,
  now: number,
): Promise<number> {
  await deleteStaleUploads(db, now);
  const stored = await createUploadWithinQuota(db, { ...u, now }, quota);
  if (stored.ok) return stored.id;
  const { usage } = stored;
  const system = `system "${(await getSystem(db, u.systemId))?.name ?? u.systemId}"`;
  const over =
    usage.count + 1 > quota.maxCount
      ? `${system[0].toUpperCase()}${system.slice(1)} already holds ${formatCount(usage.count)} unsaved upload${usage.count === 1 ? "" : "s"}; the limit is ${formatCount(quota.maxCount)} per system.`
      : `The unsaved uploads of ${system} hold ${formatBytes(usage.bytes)}; with ${u.fileName} (${formatBytes(u.bytes.byteLength)}) they would pass the limit of ${formatBytes(quota.maxBytes)} per system.`;
  const expiry = usage.oldestAt === null ? "" : `, the oldest in ${duration(usage.oldestAt + UPLOAD_TTL_MS - now)}`;
  throw new DatasetError(
    "upload_quota",
    `${over} Nothing was stored. Save or cancel one of them (listed on Upload cases), or wait: unsaved uploads are deleted a day after upload${expiry}.`,
  );
}

/** A wait for messages: "22 h", "22 h 30 min", "5 min", "less than a minute". */
function duration(ms: number): string {
  const minutes = Math.ceil(ms / 60_000);
  if (minutes <= 0) return "less than a minute";
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}
