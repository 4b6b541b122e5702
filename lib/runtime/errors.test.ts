import { describe, expect, it } from "vitest";
import { APICallError, JSONParseError, NoSuchModelError, RetryError } from "ai";
import { classifyError, describeTrialError, redactSecrets, retryAfterMsFromHeaders } from "./errors";
import { KeyPolicyError } from "./key-policy";

describe("classifyError", () => {
  it("classifies a 2xx answer that is not JSON as a retryable bad_response (like a 5xx: a cut-off body is transient)", () => {
    const e = new APICallError({
      message: "Invalid JSON response",
      url: "u",
      requestBodyValues: {},
      statusCode: 200,
      cause: new JSONParseError({ text: "{oops", cause: new SyntaxError("Unexpected token") }),
    });
    expect(classifyError(e)).toEqual({
      kind: "bad_response",
      retryable: true,
      status: 200,
      message: "invalid response from the model server: Invalid JSON response",
    });
    expect(classifyError(new JSONParseError({ text: "{oops", cause: new SyntaxError("Unexpected end") }))).toMatchObject({
      kind: "bad_response",
      retryable: true,
    });
    expect(classifyError(Object.assign(new Error("Empty response body"), { name: "AI_EmptyResponseBodyError" }))).toMatchObject({
      kind: "bad_response",
      retryable: true,
    });
  });

  it("does not retry a well-formed answer of the wrong shape (the server speaks another protocol: trying again gives the same)", () => {
    const wrongShape = Object.assign(new Error("Type validation failed: choices: Required"), { name: "AI_TypeValidationError" });
    expect(classifyError(wrongShape)).toMatchObject({ kind: "bad_response", retryable: false });
    const e = new APICallError({ message: "Invalid JSON response", url: "u", requestBodyValues: {}, statusCode: 200, cause: wrongShape });
    expect(classifyError(e)).toMatchObject({ kind: "bad_response", retryable: false, status: 200 });
  });

  it("classifies a 400 saying the model does not exist as not_found", () => {
    const e = new APICallError({ message: "model 'llama9' not found, try pulling it first", url: "u", requestBodyValues: {}, statusCode: 400 });
    expect(classifyError(e).kind).toBe("not_found");
    expect(classifyError(new NoSuchModelError({ modelId: "x", modelType: "languageModel" })).kind).toBe("not_found");
  });

  it("classifies connection failures as retryable network errors", () => {
    const e = new APICallError({ message: "Cannot connect to API: connect ECONNREFUSED 127.0.0.1:1", url: "u", requestBodyValues: {}, isRetryable: true });
    expect(classifyError(e)).toEqual({ kind: "network", retryable: true, message: "Cannot connect to API: connect ECONNREFUSED 127.0.0.1:1" });
    const raw = new TypeError("fetch failed", { cause: Object.assign(new Error("getaddrinfo ENOTFOUND x"), { code: "ENOTFOUND" }) });
    expect(classifyError(raw).kind).toBe("network");
  });

  it("tells timeouts from aborts", () => {
    expect(classifyError(new DOMException("t", "TimeoutError")).kind).toBe("timeout");
    expect(classifyError(new DOMException("a", "AbortError")).kind).toBe("aborted");
    expect(classifyError(new Error("anything"), { timedOut: true, timeoutMs: 30 })).toEqual({
      kind: "timeout",
      retryable: false,
      message: "model call timed out after 30 ms",
    });
    expect(classifyError("reason string", { aborted: true }).kind).toBe("aborted");
  });

  it("classifies a RetryError by its last error", () => {
    const last = new APICallError({ message: "busy", url: "u", requestBodyValues: {}, statusCode: 503 });
    const e = new RetryError({ message: "Failed after 3 attempts", reason: "maxRetriesExceeded", errors: [last, last, last] });
    expect(classifyError(e)).toMatchObject({ kind: "server", retryable: true, status: 503 });
  });

  it("classifies a missing or refused key as auth and anything else as other", () => {
    const missing = Object.assign(new Error("No API key: set OPENAI_API_KEY"), { name: "MissingApiKeyError" });
    expect(classifyError(missing)).toEqual({ kind: "auth", retryable: false, message: "No API key: set OPENAI_API_KEY" });
    const refused = new KeyPolicyError("key_host_refused", "baseUrl", "The key in OPENAI_API_KEY may not be sent to evil.example; the request was not made.");
    expect(classifyError(refused)).toEqual({ kind: "auth", retryable: false, message: refused.message });
    expect(classifyError(new Error("weird"))).toEqual({ kind: "other", retryable: false, message: "weird" });
    expect(classifyError(undefined)).toMatchObject({ kind: "other" });
  });

  it("never keeps a key echoed by the provider", () => {
    const e = new APICallError({
      message: "Incorrect API key provided: sk-proj-abcdEFGH1234567890. You can find your API key at https://platform.openai.com.",
      url: "u",
      requestBodyValues: {},
      statusCode: 401,
    });
    const c = classifyError(e);
    expect(c.kind).toBe("auth");
    expect(c.message).not.toContain("abcdEFGH1234567890");
    expect(c.message).toContain("Incorrect API key provided: [redacted]");
  });

  it("truncates very long messages", () => {
    expect(classifyError(new Error("x".repeat(5000))).message.length).toBeLessThanOrEqual(1001);
  });
});

describe("redactSecrets", () => {
  it("redacts keys, bearer tokens and key assignments", () => {
    expect(redactSecrets("key sk-ant-api03-XYZxyz123456 used")).toBe("key [redacted] used");
    expect(redactSecrets("Authorization: Bearer abc.def.ghi123")).not.toContain("abc.def.ghi123");
    expect(redactSecrets('{"api_key": "zzzzzzzzzz"}')).toBe('{"api_key": "[redacted]"}');
    expect(redactSecrets("plain message, max_tokens: 123456")).toBe("plain message, max_tokens: 123456");
  });
});

describe("retryAfterMsFromHeaders", () => {
  it("reads retry-after-ms, retry-after seconds and HTTP dates, in any header case", () => {
    expect(retryAfterMsFromHeaders({ "retry-after-ms": "250" })).toBe(250);
    expect(retryAfterMsFromHeaders({ "Retry-After": "2" })).toBe(2000);
    expect(retryAfterMsFromHeaders({ "retry-after": "Wed, 21 Oct 2015 07:28:10 GMT" }, Date.parse("Wed, 21 Oct 2015 07:28:00 GMT"))).toBe(10_000);
    expect(retryAfterMsFromHeaders({ "retry-after": "soon" })).toBeUndefined();
    expect(retryAfterMsFromHeaders(undefined)).toBeUndefined();
  });
});

describe("describeTrialError", () => {
  it("says the kind, the HTTP status when there was one, and the provider's message (trials and Test connection alike)", () => {
    const e = classifyError(
      new APICallError({
        message: "Rate limit reached for requests",
        url: "http://x/v1/chat/completions",
        requestBodyValues: {},
        statusCode: 429,
        isRetryable: true,
      }),
    );
    expect(describeTrialError(e)).toBe("rate_limit (HTTP 429): Rate limit reached for requests");
    expect(describeTrialError({ kind: "network", message: "connect ECONNREFUSED 127.0.0.1:9" })).toBe("network: connect ECONNREFUSED 127.0.0.1:9");
  });
});
