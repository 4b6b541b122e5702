import { describe, expect, it } from "vitest";
import { generateText } from "ai";
import {
  createModel,
  MissingApiKeyError,
  ModelConfigError,
  modelConfigSchema,
  parseModelConfig,
  testConnection,
  type FetchImpl,
  type ModelConfig,
} from "./providers";
import { runModelTrial } from "./run-trial";

interface Captured {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** A fetch that records requests and answers with `respond`. */
function fakeFetch(respond: (req: Captured) => Response) {
  const calls: Captured[] = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => (headers[k] = v));
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    const req = { url, headers, body };
    calls.push(req);
    return respond(req);
  }) as FetchImpl;
  return { fetchImpl, calls };
}

function json(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

function chatCompletion(text: string) {
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1,
    model: "m",
    choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
    usage: { prompt_tokens: 9, completion_tokens: 1, total_tokens: 10 },
  };
}

const issuesOf = (input: unknown) => {
  const r = parseModelConfig(input);
  return r.ok ? [] : r.issues;
};

describe("model config schema", () => {
  it("accepts a minimal OpenAI config and drops blank optional fields", () => {
    const r = parseModelConfig({ name: " GPT mini ", provider: "openai", modelId: "gpt-4o-mini", baseUrl: "", apiKeyEnv: " ", temperature: "" });
    expect(r).toEqual({ ok: true, config: { name: "GPT mini", provider: "openai", modelId: "gpt-4o-mini" } });
  });

  it("requires a base URL for openai-compatible servers", () => {
    expect(issuesOf({ name: "Local", provider: "openai-compatible", modelId: "llama3.1" })).toEqual([
      { field: "baseUrl", message: "Base URL is required for an OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1" },
    ]);
  });

  it("requires http(s) base URLs", () => {
    for (const baseUrl of ["ftp://x/v1", "localhost:11434", "javascript:alert(1)"]) {
      expect(issuesOf({ name: "L", provider: "openai-compatible", modelId: "m", baseUrl })).toEqual([
        { field: "baseUrl", message: "Base URL must be an http:// or https:// URL, e.g. http://127.0.0.1:11434/v1" },
      ]);
    }
  });

  it("rejects an API key pasted where the variable name belongs", () => {
    const issues = issuesOf({ name: "G", provider: "openai", modelId: "gpt-4o", apiKeyEnv: "sk-abc123" });
    expect(issues).toHaveLength(1);
    expect(issues[0].field).toBe("apiKeyEnv");
    expect(issues[0].message).toMatch(/environment variable NAME like OPENAI_API_KEY/);
    expect(issuesOf({ name: "G", provider: "openai", modelId: "gpt-4o", apiKeyEnv: "lower_case" })[0].field).toBe("apiKeyEnv");
    expect(issuesOf({ name: "G", provider: "openai", modelId: "gpt-4o", apiKeyEnv: "MY_KEY_2" })).toEqual([]);
  });

  it("checks temperature, max output tokens, prices, provider and required names", () => {
    const base = { name: "G", provider: "openai", modelId: "gpt-4o" };
    expect(issuesOf({ ...base, temperature: 2.5 })).toEqual([{ field: "temperature", message: "Temperature must be between 0 and 2" }]);
    expect(issuesOf({ ...base, temperature: -0.1 })[0].field).toBe("temperature");
    expect(issuesOf({ ...base, temperature: 2 })).toEqual([]);
    for (const maxOutputTokens of [0, 1.5, 200_001]) {
      expect(issuesOf({ ...base, maxOutputTokens })).toEqual([
        { field: "maxOutputTokens", message: "Max output tokens must be a whole number between 1 and 200,000" },
      ]);
    }
    expect(issuesOf({ ...base, inputPricePerMTok: -1 })).toEqual([{ field: "inputPricePerMTok", message: "Input price cannot be negative" }]);
    expect(issuesOf({ ...base, provider: "gemini" })).toEqual([
      { field: "provider", message: 'Provider must be "openai", "anthropic" or "openai-compatible"' },
    ]);
    expect(issuesOf({ provider: "openai", name: "", modelId: " " }).map((i) => i.field)).toEqual(["name", "modelId"]);
  });

  it("exposes the zod schema for forms", () => {
    expect(modelConfigSchema.safeParse({ name: "A", provider: "anthropic", modelId: "claude-sonnet-4-5" }).success).toBe(true);
  });
});

describe("createModel", () => {
  it("throws a typed error naming the missing variable (default and custom names)", () => {
    const env = { OTHER_SECRET: "sk-should-never-appear-123456" };
    let caught: unknown;
    try {
      createModel({ name: "GPT", provider: "openai", modelId: "gpt-4o" }, env);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(MissingApiKeyError);
    expect(caught).toMatchObject({ variable: "OPENAI_API_KEY", provider: "openai", code: "missing_api_key" });
    expect((caught as Error).message).toBe('No API key for model "GPT": set the environment variable OPENAI_API_KEY (openai).');

    expect(() =>
      createModel({ name: "Claude", provider: "anthropic", modelId: "claude-x", apiKeyEnv: "TEAM_ANTHROPIC_API_KEY" }, { TEAM_ANTHROPIC_API_KEY: "  " }),
    ).toThrow(/TEAM_ANTHROPIC_API_KEY/);
    expect(() =>
      createModel(
        { name: "Local", provider: "openai-compatible", modelId: "m", baseUrl: "http://127.0.0.1:1/v1", apiKeyEnv: "VLLM_API_KEY" },
        { BENCHWORK_KEY_HOSTS: "VLLM_API_KEY=http://127.0.0.1:1" },
      ),
    ).toThrow(MissingApiKeyError);
  });

  it("throws ModelConfigError listing the problems of an invalid config", () => {
    expect(() => createModel({ name: "x", provider: "openai-compatible", modelId: "m" } as ModelConfig, {})).toThrow(ModelConfigError);
    expect(() => createModel({ name: "x", provider: "openai-compatible", modelId: "m" } as ModelConfig, {})).toThrow(/baseUrl: Base URL is required/);
  });

  it("calls OpenAI chat completions with the key from the named variable, which never leaks into the model or errors", async () => {
    const secret = "sk-test-SECRET-0123456789abcdef";
    const { fetchImpl, calls } = fakeFetch(() =>
      json(401, { error: { message: `Incorrect API key provided: ${secret}.`, type: "invalid_request_error", code: "invalid_api_key" } }),
    );
    const model = createModel(
      { name: "GPT", provider: "openai", modelId: "gpt-4o-mini", apiKeyEnv: "MY_OPENAI_API_KEY" },
      { MY_OPENAI_API_KEY: secret },
      fetchImpl,
    );
    expect(JSON.stringify(model)).not.toContain(secret);
    const record = await runModelTrial({ model, system: "", messages: [{ role: "user", content: "hi" }], timeoutMs: 5000 });
    expect(calls[0].url).toBe("https://api.openai.com/v1/chat/completions");
    expect(calls[0].headers.authorization).toBe(`Bearer ${secret}`);
    expect(calls[0].body.model).toBe("gpt-4o-mini");
    expect(record.error?.kind).toBe("auth");
    expect(record.error?.status).toBe(401);
    expect(JSON.stringify(record)).not.toContain(secret);
    expect(JSON.stringify(record)).not.toContain("SECRET-0123456789");
  });

  it("calls Anthropic's Messages API with x-api-key", async () => {
    const secret = "sk-ant-test-987654321";
    const { fetchImpl, calls } = fakeFetch(() =>
      json(200, {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "claude-x",
        content: [{ type: "text", text: "OK" }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 11, output_tokens: 2 },
      }),
    );
    const model = createModel({ name: "Claude", provider: "anthropic", modelId: "claude-x" }, { ANTHROPIC_API_KEY: secret }, fetchImpl);
    expect(JSON.stringify(model)).not.toContain(secret);
    const result = await testConnection(model, {
      now: (() => {
        let t = 0;
        return () => (t += 40);
      })(),
    });
    expect(result).toEqual({ ok: true, text: "OK", latencyMs: 40 });
    expect(calls[0].url).toBe("https://api.anthropic.com/v1/messages");
    expect(calls[0].headers["x-api-key"]).toBe(secret);
    expect(calls[0].body).toMatchObject({
      model: "claude-x",
      max_tokens: 5,
      messages: [{ role: "user", content: [{ type: "text", text: "Reply with the word OK." }] }],
    });
  });

  it("calls an OpenAI-compatible server without a key when no variable is configured", async () => {
    const { fetchImpl, calls } = fakeFetch(() => json(200, chatCompletion("OK")));
    const model = createModel({ name: "Ollama", provider: "openai-compatible", modelId: "llama3.1:8b", baseUrl: "http://127.0.0.1:11434/v1/" }, {}, fetchImpl);
    const result = await testConnection(model);
    expect(result).toMatchObject({ ok: true, text: "OK" });
    expect(calls[0].url).toBe("http://127.0.0.1:11434/v1/chat/completions");
    expect(calls[0].headers.authorization).toBeUndefined();
    expect(calls[0].body).toMatchObject({ model: "llama3.1:8b", max_tokens: 5 });
  });

  it("sends the configured key to an OpenAI-compatible server", async () => {
    const { fetchImpl, calls } = fakeFetch(() => json(200, chatCompletion("fine")));
    const model = createModel(
      { name: "vLLM", provider: "openai-compatible", modelId: "m", baseUrl: "https://vllm.internal.example/v1", apiKeyEnv: "VLLM_TOKEN" },
      { VLLM_TOKEN: "token-abc", BENCHWORK_ALLOWED_KEY_VARS: "VLLM_TOKEN", BENCHWORK_KEY_HOSTS: "VLLM_TOKEN=vllm.internal.example" },
      fetchImpl,
    );
    const r = await generateText({ model, prompt: "x", maxRetries: 0 });
    expect(r.text).toBe("fine");
    expect(calls[0].headers.authorization).toBe("Bearer token-abc");
  });

  it("reports connection failures as a classified error", async () => {
    const { fetchImpl } = fakeFetch(() => json(503, { error: { message: "overloaded" } }));
    const model = createModel({ name: "L", provider: "openai-compatible", modelId: "m", baseUrl: "http://127.0.0.1:9/v1" }, {}, fetchImpl);
    const result = await testConnection(model);
    expect(result).toEqual({ ok: false, error: { kind: "server", retryable: true, status: 503, message: "overloaded" } });
  });
});
