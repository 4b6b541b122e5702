/**
 * Import limits from the environment (issue 3: "both limits set by environment variables and
 * shown on the page"). `BENCHWORK_IMPORT_MAX_BYTES` (default 4 MB = 4,194,304) and
 * `BENCHWORK_IMPORT_MAX_ROWS` (default 5,000). A value that is not a positive whole number is
 * ignored with a warning on the server log, so a typo never disables a limit.
 */
import { resolveLimits, type ImportLimits } from "@/lib/import/limits";

/** Names of the environment variables. */
export const IMPORT_ENV = { maxBytes: "BENCHWORK_IMPORT_MAX_BYTES", maxRows: "BENCHWORK_IMPORT_MAX_ROWS" } as const;

const warned = new Set<string>();

function positiveInt(env: Record<string, string | undefined>, name: string): number | undefined {
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
 * @returns every limit, the two configurable ones taken from `env` when valid
 */
export function importLimitsFromEnv(env: Record<string, string | undefined> = process.env): ImportLimits {
  return resolveLimits({ maxBytes: positiveInt(env, IMPORT_ENV.maxBytes), maxRows: positiveInt(env, IMPORT_ENV.maxRows) });
}
