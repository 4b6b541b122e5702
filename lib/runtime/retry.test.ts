import { describe, expect, it } from "vitest";
import { APICallError } from "ai";
import type { TrialError } from "./errors";
import { retryDelayMs, withRetries, type RetryInfo } from "./retry";

function apiError(statusCode: number, headers?: Record<string, string>) {
  return new APICallError({ message: `HTTP ${statusCode}`, url: "u", requestBodyValues: {}, statusCode, responseHeaders: headers });
}

/** A function that throws the given errors in turn, then returns "ok". */
function failing(...errors: unknown[]) {
  let calls = 0;
  const fn = async (attempt: number) => {
    calls++;
    expect(attempt).toBe(calls);
    if (calls <= errors.length) throw errors[calls - 1];
    return "ok";
  };
  return { fn, calls: () => calls };
}

describe("withRetries", () => {
  it("retries 429 and 5xx errors with exponential backoff and jitter", async () => {
    const waits: number[] = [];
    const infos: RetryInfo[] = [];
    const f = failing(apiError(429), apiError(500), apiError(503));
    const out = await withRetries(f.fn, {
      sleep: async (ms) => void waits.push(ms),
      random: () => 0.5,
      onRetry: (info) => infos.push(info),
    });
    expect(out).toBe("ok");
    expect(f.calls()).toBe(4);
    // e = 500·2^i ms; wait e/2 + 0.5·e/2 = 0.75·e
    expect(waits).toEqual([375, 750, 1500]);
    expect(infos.map((i) => [i.attempt, i.delayMs, i.error.kind])).toEqual([
      [1, 375, "rate_limit"],
      [2, 750, "server"],
      [3, 1500, "server"],
    ]);
  });

  it("caps the backoff at maxDelayMs and spans half to all of it with the jitter", async () => {
    const error: TrialError = { kind: "server", retryable: true, message: "x" };
    expect(retryDelayMs(10, error, { random: () => 0 })).toBe(4000);
    expect(retryDelayMs(10, error, { random: () => 0.999999 })).toBe(8000);
    expect(retryDelayMs(0, error, { baseDelayMs: 100, random: () => 0 })).toBe(50);
    expect(retryDelayMs(2, error, { baseDelayMs: 100, maxDelayMs: 300, random: () => 1 })).toBe(300);
  });

  it("does not retry 4xx errors and rethrows them", async () => {
    for (const status of [400, 401, 403, 404, 422]) {
      const f = failing(apiError(status));
      const waits: number[] = [];
      await expect(withRetries(f.fn, { sleep: async (ms) => void waits.push(ms) })).rejects.toMatchObject({ statusCode: status });
      expect(f.calls()).toBe(1);
      expect(waits).toEqual([]);
    }
  });

  it("gives up after `retries` retries and throws the last error", async () => {
    const f = failing(apiError(500), apiError(502), apiError(503), apiError(504), apiError(500));
    await expect(withRetries(f.fn, { retries: 3, sleep: async () => {} })).rejects.toMatchObject({ statusCode: 504 });
    expect(f.calls()).toBe(4);
  });

  it("honours Retry-After (seconds) and retry-after-ms from the error", async () => {
    const waits: number[] = [];
    const f = failing(apiError(429, { "retry-after": "3" }), apiError(429, { "retry-after-ms": "1250" }), apiError(503, { "Retry-After": "1" }));
    await withRetries(f.fn, { sleep: async (ms) => void waits.push(ms) });
    expect(waits).toEqual([3000, 1250, 1000]);
  });

  it("caps a very long Retry-After at maxRetryAfterMs", async () => {
    const waits: number[] = [];
    const f = failing(apiError(429, { "retry-after": "3600" }));
    await withRetries(f.fn, { sleep: async (ms) => void waits.push(ms), maxRetryAfterMs: 10_000 });
    expect(waits).toEqual([10_000]);
  });

  it("retries network errors", async () => {
    const network = new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) });
    const f = failing(network);
    expect(await withRetries(f.fn, { sleep: async () => {} })).toBe("ok");
    expect(f.calls()).toBe(2);
  });

  it("retries results that carry a retryable failure (failureOf) and returns the last result", async () => {
    const results = [
      { error: { kind: "rate_limit", retryable: true, message: "429" } as TrialError },
      { error: { kind: "server", retryable: true, message: "500" } as TrialError },
      { error: undefined },
    ];
    let i = 0;
    const out = await withRetries(async () => results[i++], { failureOf: (r) => r.error, sleep: async () => {} });
    expect(out).toBe(results[2]);
    expect(i).toBe(3);

    let j = 0;
    const last = await withRetries(async () => results[j++], { failureOf: (r) => r.error, retries: 1, sleep: async () => {} });
    expect(last).toBe(results[1]);
  });

  it("stops retrying once the abort signal fires", async () => {
    const controller = new AbortController();
    const f = failing(apiError(500), apiError(500), apiError(500));
    await expect(
      withRetries(f.fn, {
        abortSignal: controller.signal,
        sleep: async () => {
          controller.abort();
        },
      }),
    ).rejects.toMatchObject({ statusCode: 500 });
    expect(f.calls()).toBe(1);
  });

  it("waits for real with the default sleep", async () => {
    const f = failing(apiError(500));
    const started = Date.now();
    expect(await withRetries(f.fn, { baseDelayMs: 40, random: () => 0 })).toBe("ok");
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
  });
});
