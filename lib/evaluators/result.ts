/**
 * Constructors for check results, so every evaluator words verdicts and prefixes the same way.
 */
import type { CheckResult } from "./types";

/** Prefix of every `error` message caused by a bad evaluator configuration. */
export const CONFIG_ERROR_PREFIX = "evaluator configuration error: ";
/** Prefix of every `error` message caused by the custom-evaluator sandbox (crash, timeout, wrong shape). */
export const INFRA_ERROR_PREFIX = "evaluator infrastructure failure: ";

/** A `passed` result with score 1 (or the given score in [0, 1]). */
export function passed(kind: string, message: string, details?: Record<string, unknown>, score = 1): CheckResult {
  return details === undefined ? { kind, verdict: "passed", score, message } : { kind, verdict: "passed", score, message, details };
}

/** A `failed` result with score 0 (or the given score in [0, 1]). */
export function failed(kind: string, message: string, details?: Record<string, unknown>, score = 0): CheckResult {
  return details === undefined ? { kind, verdict: "failed", score, message } : { kind, verdict: "failed", score, message, details };
}

/** An `unscored` result (score 0): the check cannot be observed on this trial; `reason` says why. */
export function unscored(kind: string, reason: string, details?: Record<string, unknown>): CheckResult {
  return details === undefined ? { kind, verdict: "unscored", score: 0, message: reason } : { kind, verdict: "unscored", score: 0, message: reason, details };
}

/** An `error` result (score 0) with the message as given. */
export function errorResult(kind: string, message: string, details?: Record<string, unknown>): CheckResult {
  return details === undefined ? { kind, verdict: "error", score: 0, message } : { kind, verdict: "error", score: 0, message, details };
}

/** An `error` result for a configuration mistake that reached a bench (prefixed with {@link CONFIG_ERROR_PREFIX}). */
export function configError(kind: string, problem: string, details?: Record<string, unknown>): CheckResult {
  return errorResult(kind, CONFIG_ERROR_PREFIX + problem, details);
}

/** An `error` result for a sandbox failure (prefixed with {@link INFRA_ERROR_PREFIX}). */
export function infraError(kind: string, problem: string, details?: Record<string, unknown>): CheckResult {
  return errorResult(kind, INFRA_ERROR_PREFIX + problem, details);
}
