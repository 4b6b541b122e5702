/**
 * Import limits from the environment (issue 3: "both limits set by environment variables and
 * shown on the page"). `BENCHWORK_IMPORT_MAX_BYTES` (default 4 MB = 4,194,304) and
 * `BENCHWORK_IMPORT_MAX_ROWS` (default 5,000); for workbooks `BENCHWORK_IMPORT_MAX_PART_BYTES`
 * (most bytes one part — the shared strings, a worksheet — may unpack to; default 16 MB) and
 * `BENCHWORK_IMPORT_MAX_UNPACKED_BYTES` (the whole workbook unpacked; default 32 MB). A value that
 * is not a positive whole number is ignored with a warning on the server log, so a typo never
 * disables a limit.
 */
import { resolveLimits, type ImportLimits } from "@/lib/import/limits";

/** Names of the environment variables. */
export const IMPORT_ENV = {
  maxBytes: "BENCHWORK_IMPORT_MAX_BYTES",
  maxRows: "BENCHWORK_IMPORT_MAX_ROWS",
  maxPartBytes: "BENCHWORK_IMPORT_MAX_PART_BYTES",
  maxUncompressedBytes: "BENCHWORK_IMPORT_MAX_UNPACKED_BYTES",
} as const;

const warned = new Set<string>();

/**
 * A positive whole number from the environment.
 * @param env the environment
 * @param name the variable
 * @returns its value, or undefined when unset or invalid (invalid: one warning per variable on the server log)
 */
export function positiveIntFromEnv(env: Record<string, string | undefined>, name: string): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (/^\d{1,15}$/.test(raw) && Number(raw) > 0) return Number(raw);
  if (!warned.has(name)) {
    warned.add(name);
    console.warn(`benchwork: ${name}=${JSON.stringify(raw)} is not a positive whole number; using the default.`);
  }
  return undefined;
}

/**
 * The import limits in force.
 * @param env the environment (default `process.env`)
 * @returns every limit, the configurable ones taken from `env` when valid
 */
export function importLimitsFromEnv(env: Record<string, string | undefined> = process.env): ImportLimits {
  return resolveLimits({
    maxBytes: positiveIntFromEnv(env, IMPORT_ENV.maxBytes),
    maxRows: positiveIntFromEnv(env, IMPORT_ENV.maxRows),
    maxPartBytes: positiveIntFromEnv(env, IMPORT_ENV.maxPartBytes),
    maxUncompressedBytes: positiveIntFromEnv(env, IMPORT_ENV.maxUncompressedBytes),
  });
}
