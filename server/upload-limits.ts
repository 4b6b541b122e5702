/**
 * Limits of the upload route from the environment (issue "Seal the server and the sandboxes",
 * item 9), and the server's one {@link UploadGate}:
 * - `BENCHWORK_UPLOADS_AT_ONCE` (default 2, the parser's parallel parses): uploads read and
 *   parsed at once; more are refused with 503 and Retry-After;
 * - `BENCHWORK_UPLOADS_PER_MINUTE` (default 30): uploads admitted in any 60 s, all clients
 *   together; more are refused with 429 and Retry-After;
 * - `BENCHWORK_UPLOADS_MAX_UNSAVED` (default 20) and `BENCHWORK_UPLOADS_MAX_UNSAVED_BYTES`
 *   (default 64 MB): the unsaved uploads one system may hold (they expire a day after upload).
 * Invalid values are ignored with a warning (see import-limits.ts).
 */
import { UploadGate, type UploadGateLimits } from "@/lib/datasets/upload-gate";
import type { UploadQuota } from "@/db/queries/dataset-uploads";
import { MAX_PARALLEL_PARSES } from "./parse-bounded";
import { positiveIntFromEnv } from "./import-limits";

/** Names of the environment variables. */
export const UPLOAD_ENV = {
  atOnce: "BENCHWORK_UPLOADS_AT_ONCE",
  perMinute: "BENCHWORK_UPLOADS_PER_MINUTE",
  maxUnsaved: "BENCHWORK_UPLOADS_MAX_UNSAVED",
  maxUnsavedBytes: "BENCHWORK_UPLOADS_MAX_UNSAVED_BYTES",
} as const;

/** Defaults of the gate and the quota. */
export const UPLOAD_DEFAULTS = { maxInFlight: MAX_PARALLEL_PARSES, perMinute: 30, maxCount: 20, maxBytes: 64 * 1024 * 1024 } as const;

/**
 * @param env the environment (default `process.env`)
 * @returns uploads at once and per minute
 */
export function uploadGateLimitsFromEnv(env: Record<string, string | undefined> = process.env): UploadGateLimits {
  return {
    maxInFlight: positiveIntFromEnv(env, UPLOAD_ENV.atOnce) ?? UPLOAD_DEFAULTS.maxInFlight,
    perMinute: positiveIntFromEnv(env, UPLOAD_ENV.perMinute) ?? UPLOAD_DEFAULTS.perMinute,
  };
}

/**
 * @param env the environment (default `process.env`)
 * @returns the unsaved uploads (count, bytes) one system may hold
 */
export function uploadQuotaFromEnv(env: Record<string, string | undefined> = process.env): UploadQuota {
  return {
    maxCount: positiveIntFromEnv(env, UPLOAD_ENV.maxUnsaved) ?? UPLOAD_DEFAULTS.maxCount,
    maxBytes: positiveIntFromEnv(env, UPLOAD_ENV.maxUnsavedBytes) ?? UPLOAD_DEFAULTS.maxBytes,
  };
}

// On globalThis: the route's module may be instantiated more than once in one server process
// (one copy per route bundle); the limits must hold for the process.
const shared = globalThis as unknown as { benchworkUploadGate?: UploadGate };

/** The server's gate, made on first use with the limits from the environment and the real clock. */
export function uploadGate(): UploadGate {
  shared.benchworkUploadGate ??= new UploadGate(uploadGateLimitsFromEnv(), Date.now);
  return shared.benchworkUploadGate;
}
