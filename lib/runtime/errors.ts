/**
 * Classification of model-call failures into a small, stable set of kinds that the bench stores
 * with a trial (DESIGN.md §1: infrastructure failures give checks the verdict `error`, never a
 * model failure) and that {@link withRetries} uses to decide whether to try again.
 */
import { APICallError, AISDKError, RetryError } from "ai";

/** Kinds of trial errors. */
export const TRIAL_ERROR_KINDS = ["timeout", "aborted", "rate_limit", "server", "bad_response", "not_found", "auth", "network", "other"] as const;
export type TrialErrorKind = (typeof TRIAL_ERROR_KINDS)[number];

/**
 * A classified failure of a model call. JSON-serialisable; never contains an API key.
 * - `retryable`: whether trying again may succeed (rate limits, 5xx, network errors).
 * - `status`: the HTTP status when the provider answered.
 * - `message`: the provider's or runtime's message, with anything that looks like a key redacted,
 *   at most 1,000 characters.
 * - `retryAfterMs`: the delay the server asked for (`retry-after-ms` or `retry-after` header), in ms.
 */
export interface TrialError {
  kind: TrialErrorKind;
  retryable: boolean;
  status?: number;
  message: string;
  retryAfterMs?: number;
}

/**
 * A trial error as one line for people: its kind, the HTTP status when there was one, and the
 * provider's message, e.g. `rate_limit (HTTP 429): Rate limit reached for requests`. Trials and
 * Test connection say it the same way.
 */
export function describeTrialError(e: Pick<TrialError, "kind" | "status" | "message">): string {
  return `${e.kind}${e.status ? ` (HTTP ${e.status})` : ""}: ${e.message}`;
}

/** What the caller knows about why a call stopped (only the runtime can tell its timeout from the caller's abort). */
export interface ClassifyContext {
  /** The runtime's own timeout fired. */
  timedOut?: boolean;
  /** The caller's abort signal fired. */
  aborted?: boolean;
  /** The timeout in ms, for the message. */
  timeoutMs?: number;
}

const MAX_MESSAGE = 1000;

const SECRET_REPLACEMENTS: [RegExp, string][] = [
  // OpenAI / Anthropic style keys ("sk-…", "sk-proj-…", "sk-ant-…"), also partially masked ones.
  [/\bsk-[A-Za-z0-9_\-*.]{6,}/g, "[redacted]"],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9_\-.=+/]{6,}/gi, "$1 [redacted]"],
  [/\b((?:api[_ -]?key|x-api-key|authorization|access[_ -]?token)["']?\s*[:=]\s*["']?)[A-Za-z0-9_\-.=+/]{6,}/gi, "$1[redacted]"],
  [/(API key provided:\s*)\S+/gi, "$1[redacted]"],
];

/**
 * Replaces anything that looks like an API key or bearer token in a message with `[redacted]`.
 * Providers sometimes echo (part of) a rejected key in 401 messages; those must never be stored.
 */
export function redactSecrets(message: string): string {
  let out = message;
  for (const [pattern, replacement] of SECRET_REPLACEMENTS) out = out.replace(pattern, replacement);
  return out;
}

function cleanMessage(message: string): string {
  const text = redactSecrets(message.trim() === "" ? "unknown error" : message);
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text;
}

function headerValue(headers: Record<string, string> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  if (headers[name] !== undefined) return headers[name];
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}

/**
 * The delay a server asked for before retrying, from `retry-after-ms` (milliseconds) or
 * `retry-after` (seconds, or an HTTP date relative to `nowMs`).
 * @param headers response headers (any case)
 * @param nowMs the current time in ms since the epoch, for HTTP dates
 * @returns the delay in ms (≥ 0), or undefined when absent or unparsable
 */
export function retryAfterMsFromHeaders(headers: Record<string, string> | undefined, nowMs = Date.now()): number | undefined {
  const ms = headerValue(headers, "retry-after-ms");
  if (ms !== undefined) {
    const value = Number.parseFloat(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const after = headerValue(headers, "retry-after");
  if (after !== undefined) {
    const seconds = Number(after.trim());
    if (after.trim() !== "" && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(after);
    if (!Number.isNaN(date)) return Math.max(0, date - nowMs);
  }
  return undefined;
}

function isNamed(e: unknown, ...names: string[]): boolean {
  return typeof e === "object" && e !== null && names.includes((e as { name?: unknown }).name as string);
}

function messageOf(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === "string") return e;
  if (typeof e === "object" && e !== null && typeof (e as { message?: unknown }).message === "string") {
    return (e as { message: string }).message;
  }
  try {
    return JSON.stringify(e) ?? String(e);
  } catch {
    return String(e);
  }
}

const NOT_FOUND_WORDS = /model[^.]{0,80}\b(not found|does not exist|not exist|unknown|not available|no such)|unknown model|no such model|model_not_found/i;
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "ConnectionRefused",
  "ConnectionClosed",
  "FailedToOpenSocket",
]);

function networkCode(e: unknown): string | undefined {
  let current: unknown = e;
  const seen = new Set<unknown>();
  while (typeof current === "object" && current !== null && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_CODES.has(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function isBadResponseCause(cause: unknown): boolean {
  return isNamed(cause, "AI_JSONParseError", "AI_TypeValidationError", "SyntaxError");
}

/**
 * A reply that could not be read at all (cut-off or garbled JSON, an empty body) is transient, like
 * a 5xx from an overloaded proxy: the same request usually succeeds. Valid JSON of the wrong shape
 * (a type validation error) is not: the server speaks another protocol and would answer the same.
 */
const UNREADABLE_REPLY = ["AI_JSONParseError", "SyntaxError", "AI_EmptyResponseBodyError"];

function fromStatus(status: number, message: string, headers: Record<string, string> | undefined): TrialError {
  const base = { status, message: cleanMessage(message) };
  if (status === 429) {
    const retryAfterMs = retryAfterMsFromHeaders(headers);
    return { kind: "rate_limit", retryable: true, ...base, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  }
  if (status >= 500) {
    const retryAfterMs = retryAfterMsFromHeaders(headers);
    return { kind: "server", retryable: true, ...base, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  }
  if (status === 401 || status === 403) return { kind: "auth", retryable: false, ...base };
  if (status === 404) return { kind: "not_found", retryable: false, ...base };
  if (status === 408) return { kind: "timeout", retryable: true, ...base };
  if ((status === 400 || status === 422) && NOT_FOUND_WORDS.test(message)) return { kind: "not_found", retryable: false, ...base };
  return { kind: "other", retryable: false, ...base };
}

/**
 * Classifies any error thrown by a model call (ai SDK errors, fetch errors, aborts).
 * - HTTP 429 → `rate_limit` (retryable, with `retryAfterMs` when the server sent a Retry-After header);
 *   5xx → `server` (retryable); 401/403 → `auth`; 404, `NoSuchModelError`, or a 400/422 whose message
 *   says the model is unknown → `not_found`; 408 → `timeout` (retryable); other statuses → `other`.
 * - A 2xx answer that is not valid JSON or not the expected shape, an empty body, or no content →
 *   `bad_response`; retryable (like a 5xx) when the reply could not be read (malformed JSON, empty
 *   body), not when it was valid JSON of the wrong shape or had no content.
 * - Connection failures (refused, reset, DNS, socket errors) → `network` (retryable).
 * - An abort: `timeout` when `ctx.timedOut`, `aborted` when `ctx.aborted`; without context, a
 *   `TimeoutError` is `timeout` and an `AbortError` is `aborted`. Neither is retryable.
 * - `RetryError` (ai SDK retries exhausted) is classified by its last error.
 * - A missing API key (`MissingApiKeyError`, `LoadAPIKeyError`) or one the key policy refuses to
 *   send (`KeyPolicyError`) → `auth`.
 * - Anything else → `other`.
 * Never throws; the message never contains an API key (see {@link redactSecrets}).
 */
export function classifyError(e: unknown, ctx: ClassifyContext = {}): TrialError {
  if (ctx.timedOut) {
    return {
      kind: "timeout",
      retryable: false,
      message: ctx.timeoutMs !== undefined ? `model call timed out after ${ctx.timeoutMs} ms` : "model call timed out",
    };
  }
  if (ctx.aborted) return { kind: "aborted", retryable: false, message: "model call was aborted" };
  if (RetryError.isInstance(e)) return classifyError(e.lastError, ctx);

  if (APICallError.isInstance(e)) {
    const status = e.statusCode;
    const ok = status !== undefined && status >= 200 && status < 300;
    if ((ok || status === undefined) && (isBadResponseCause(e.cause) || /invalid json response/i.test(e.message))) {
      const retryable = !isNamed(e.cause, "AI_TypeValidationError");
      return {
        kind: "bad_response",
        retryable,
        ...(status !== undefined ? { status } : {}),
        message: cleanMessage(`invalid response from the model server: ${e.message}`),
      };
    }
    if (status !== undefined && !ok) return fromStatus(status, e.message, e.responseHeaders);
    if (status === undefined && (e.isRetryable || networkCode(e) !== undefined)) {
      return { kind: "network", retryable: true, message: cleanMessage(e.message) };
    }
    return { kind: "other", retryable: e.isRetryable, ...(status !== undefined ? { status } : {}), message: cleanMessage(e.message) };
  }

  if (isNamed(e, "TimeoutError")) return { kind: "timeout", retryable: false, message: cleanMessage(messageOf(e)) };
  if (isNamed(e, "AbortError", "ResponseAborted")) return { kind: "aborted", retryable: false, message: "model call was aborted" };

  if (isNamed(e, "AI_NoSuchModelError", "AI_NoSuchProviderError")) {
    return { kind: "not_found", retryable: false, message: cleanMessage(messageOf(e)) };
  }
  if (isNamed(e, "MissingApiKeyError", "KeyPolicyError", "AI_LoadAPIKeyError")) {
    return { kind: "auth", retryable: false, message: cleanMessage(messageOf(e)) };
  }
  if (isNamed(e, "AI_InvalidResponseDataError", "AI_EmptyResponseBodyError", "AI_NoContentGeneratedError", "AI_JSONParseError", "AI_TypeValidationError")) {
    return {
      kind: "bad_response",
      retryable: isNamed(e, ...UNREADABLE_REPLY),
      message: cleanMessage(`invalid response from the model server: ${messageOf(e)}`),
    };
  }
  const code = networkCode(e);
  if (code !== undefined || (e instanceof TypeError && /fetch failed|failed to fetch/i.test(e.message))) {
    return { kind: "network", retryable: true, message: cleanMessage(messageOf(e)) };
  }
  if (AISDKError.isInstance(e)) return { kind: "other", retryable: false, message: cleanMessage(e.message) };
  return { kind: "other", retryable: false, message: cleanMessage(messageOf(e)) };
}
