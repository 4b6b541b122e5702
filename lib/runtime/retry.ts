/**
 * Retrying model calls: exponential backoff with jitter, only for retryable failures
 * (rate limits, server errors, network errors, unreadable replies — see errors.ts), honouring
 * Retry-After.
 */
import { classifyError, type TrialError } from "./errors";

/** Information passed to `onRetry` before each wait. */
export interface RetryInfo {
  /** The attempt that failed (1 = the first call). */
  attempt: number;
  /** How long the runtime waits before the next attempt, in ms. */
  delayMs: number;
  /** The classified failure of that attempt. */
  error: TrialError;
}

/** Options of {@link withRetries}. All durations in ms. */
export interface RetryOptions<T> {
  /** Retries after the first attempt (so at most `retries + 1` calls). Default 3. */
  retries?: number;
  /** Backoff of the first retry before jitter. Default 500 ms. */
  baseDelayMs?: number;
  /** Upper bound of the exponential backoff. Default 8,000 ms. */
  maxDelayMs?: number;
  /** Upper bound of a delay asked by the server (Retry-After); longer requests are capped. Default 60,000 ms. */
  maxRetryAfterMs?: number;
  /** Waits `ms` (injected in tests). Default: a timer that ends early when `abortSignal` fires. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Random number in [0, 1) for jitter. Default `Math.random`. */
  random?: () => number;
  /** Called before each wait. */
  onRetry?: (info: RetryInfo) => void;
  /** Stops retrying (no further attempt) once aborted. */
  abortSignal?: AbortSignal;
  /**
   * For functions that report failure in their result instead of throwing (like `runModelTrial`):
   * returns the result's failure, or undefined when the result is a success.
   */
  failureOf?: (value: T) => TrialError | undefined;
  /** Classifies thrown errors. Default {@link classifyError}. */
  classify?: (e: unknown) => TrialError;
}

/** Default sleep: a timer that resolves after `ms`, or right away when `signal` aborts. */
export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * The wait before retry number `retryIndex` (0 = first retry), in ms.
 * A server-requested delay (`error.retryAfterMs`) is used as is, capped at `maxRetryAfterMs`.
 * Otherwise "equal jitter" backoff: `e = min(maxDelayMs, baseDelayMs · 2^retryIndex)`, wait
 * `e/2 + random() · e/2` (so between half and all of `e`).
 */
export function retryDelayMs(
  retryIndex: number,
  error: TrialError,
  opts: { baseDelayMs?: number; maxDelayMs?: number; maxRetryAfterMs?: number; random?: () => number } = {},
): number {
  const base = opts.baseDelayMs ?? 500;
  const max = opts.maxDelayMs ?? 8000;
  const maxRetryAfter = opts.maxRetryAfterMs ?? 60_000;
  if (error.retryAfterMs !== undefined && Number.isFinite(error.retryAfterMs)) {
    return Math.max(0, Math.min(error.retryAfterMs, maxRetryAfter));
  }
  const exponential = Math.min(max, base * 2 ** retryIndex);
  const random = (opts.random ?? Math.random)();
  return Math.round(exponential / 2 + random * (exponential / 2));
}

/**
 * Calls `fn` and retries it while it fails with a retryable failure (see {@link classifyError}:
 * 429, 5xx, network, malformed or empty replies), waiting {@link retryDelayMs} between attempts.
 * Non-retryable failures (4xx, replies of the wrong shape, timeouts, aborts) end the loop at once.
 * @param fn the call; receives the attempt number (1-based)
 * @returns the first successful value; when every attempt failed, the last failing value
 *   (for `failureOf` functions)
 * @throws the last thrown error when the final attempt threw, or a non-retryable thrown error
 */
export async function withRetries<T>(fn: (attempt: number) => Promise<T>, opts: RetryOptions<T> = {}): Promise<T> {
  const retries = Math.max(0, Math.floor(opts.retries ?? 3));
  const sleep = opts.sleep ?? defaultSleep;
  const classify = opts.classify ?? ((e: unknown) => classifyError(e));
  for (let attempt = 1; ; attempt++) {
    let failure: TrialError | undefined;
    let thrown: { error: unknown } | undefined;
    let value: T | undefined;
    try {
      value = await fn(attempt);
      failure = opts.failureOf?.(value);
    } catch (e) {
      thrown = { error: e };
      failure = classify(e);
    }
    if (failure === undefined || !failure.retryable || attempt > retries || opts.abortSignal?.aborted) {
      if (thrown) throw thrown.error;
      return value as T;
    }
    const delayMs = retryDelayMs(attempt - 1, failure, opts);
    opts.onRetry?.({ attempt, delayMs, error: failure });
    await sleep(delayMs, opts.abortSignal);
    if (opts.abortSignal?.aborted) {
      if (thrown) throw thrown.error;
      return value as T;
    }
  }
}
