/**
 * HTTP integration: the real OpenAI-compatible provider against the scripted model server
 * (e2e/fixtures/scripted-model-server.ts) on 127.0.0.1.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { streamText } from "ai";
import type { ToolDefinition } from "@/lib/library/case-content";
import { startScriptedModelServer, type ScriptedModelServer, type ScriptRule } from "@/e2e/fixtures/scripted-model-server";
import { createModel, testConnection } from "./providers";
import { renderPrompt } from "./render";
import { runModelTrial, runModelTrialWithRetries } from "./run-trial";
import { exposedTools, toAiSdkTools } from "./tools";

const getOrder: ToolDefinition = {
  name: "get_order",
  description: "Look up an order by its id",
  inputSchema: { type: "object", properties: { orderId: { type: "string" } }, required: ["orderId"] },
  fixtures: { byArguments: [{ when: { orderId: "order_123" }, result: { status: "delivered", on: "2024-05-01" } }] },
};

const orderRules: ScriptRule[] = [
  {
    name: "lookup",
    when: { userText: "Where is order_123?", hasToolResult: false },
    reply: { toolCalls: [{ name: "get_order", arguments: { orderId: "order_123" }, id: "call_abc" }], usage: { promptTokens: 31, completionTokens: 12 } },
  },
  {
    name: "answer",
    when: { userText: "Where is order_123?", hasToolResult: true },
    reply: { text: "Delivered.", usage: { promptTokens: 58, completionTokens: 3 } },
  },
];

let server: ScriptedModelServer;

function model(modelId = "scripted-1") {
  return createModel({ name: "Scripted", provider: "openai-compatible", baseUrl: server.url, modelId }, {});
}

const ask = (text: string) => [{ role: "user" as const, content: text }];

beforeAll(async () => {
  server = await startScriptedModelServer({ port: 0, host: "127.0.0.1", models: ["scripted-1"], script: orderRules });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.release();
  server.setScript(orderRules);
  server.setLatency(0);
  server.setModels(["scripted-1"]);
  server.requests.reset();
});

describe("scripted model server + openai-compatible provider", () => {
  it("listens on 127.0.0.1 and lists its models", async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/v1`);
    expect(server.port).toBeGreaterThan(0);
    const res = await fetch(`${server.url}/models`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ object: "list", data: [{ id: "scripted-1", object: "model", created: 0, owned_by: "scripted" }] });
  });

  it("runs a trial with a tool call, its fixture result and the final answer over HTTP", async () => {
    const rendered = renderPrompt({
      systemPrompt: "You are the support bot of {{shop}}.",
      content: { input: "Where is order_123?", history: [], variables: [{ name: "shop", value: "Acme" }] },
    });
    const record = await runModelTrial({
      model: model(),
      system: rendered.system,
      messages: rendered.messages,
      tools: exposedTools([getOrder], {}),
      timeoutMs: 5000,
    });
    expect(record.error).toBeUndefined();
    expect(record.output).toBe("Delivered.");
    expect(record.finishReason).toBe("stop");
    expect(record.toolCalls).toEqual([{ toolCallId: "call_abc", toolName: "get_order", input: { orderId: "order_123" }, rawInput: '{"orderId":"order_123"}' }]);
    expect(record.normalizedToolCalls).toEqual([{ toolName: "get_order", input: { orderId: "order_123" }, toolCallId: "call_abc" }]);
    expect(record.toolResults).toEqual([{ toolCallId: "call_abc", toolName: "get_order", output: { status: "delivered", on: "2024-05-01" } }]);
    expect(record.usage).toEqual({ inputTokens: 89, outputTokens: 15 });
    expect(record.steps.map((s) => s.finishReason)).toEqual(["tool-calls", "stop"]);
    expect(record.latencyMs).toBeGreaterThan(0);

    // What went over the wire.
    expect(server.requests.count).toBe(2);
    const [first, second] = server.requests.log;
    expect([first.rule, second.rule]).toEqual(["lookup", "answer"]);
    const firstBody = first.body as { model: string; messages: unknown[]; tools: { type: string; function: { name: string; parameters: unknown } }[] };
    expect(firstBody.model).toBe("scripted-1");
    expect((first.body as { stream?: boolean }).stream).not.toBe(true); // generateText does not stream
    expect(firstBody.messages).toEqual([
      { role: "system", content: "You are the support bot of Acme." },
      { role: "user", content: "Where is order_123?" },
    ]);
    expect(firstBody.tools[0]).toMatchObject({ type: "function", function: { name: "get_order", description: "Look up an order by its id" } });
    expect(firstBody.tools[0].function.parameters).toMatchObject({ type: "object", required: ["orderId"] });
    const secondMessages = (second.body as { messages: { role: string; content: unknown; tool_call_id?: string }[] }).messages;
    const toolMessage = secondMessages.find((m) => m.role === "tool");
    expect(toolMessage).toEqual({ role: "tool", tool_call_id: "call_abc", content: '{"status":"delivered","on":"2024-05-01"}' });
  });

  it("answers unmatched requests with the default reply and fills reply templates", async () => {
    server.setScript([{ when: { userTextIncludes: "echo:" }, reply: { text: "You said: {{lastUserText}} to {{model}}" } }]);
    const echoed = await runModelTrial({ model: model(), system: "", messages: ask("echo: ping"), timeoutMs: 5000 });
    expect(echoed.output).toBe("You said: echo: ping to scripted-1");
    const plain = await runModelTrial({ model: model(), system: "", messages: ask("something else"), timeoutMs: 5000 });
    expect(plain.output).toBe("Scripted answer.");
    expect(plain.usage.inputTokens).toBeGreaterThan(0);
    expect(server.requests.log.map((r) => r.rule)).toEqual(["0", "default"]);
  });

  it("matches on regex, model and system prompt", async () => {
    server.setModels(undefined);
    server.setScript([
      { when: { systemIncludes: "revision B" }, reply: { text: "B answer" } },
      { when: { model: "other-model" }, reply: { text: "other model" } },
      { when: { userTextMatches: "^hello\\b", flags: "i" }, reply: { text: "greeting" } },
    ]);
    expect((await runModelTrial({ model: model(), system: "prompt revision B", messages: ask("x"), timeoutMs: 5000 })).output).toBe("B answer");
    expect((await runModelTrial({ model: model("other-model"), system: "", messages: ask("x"), timeoutMs: 5000 })).output).toBe("other model");
    expect((await runModelTrial({ model: model(), system: "", messages: ask("HELLO there"), timeoutMs: 5000 })).output).toBe("greeting");
    expect((await runModelTrial({ model: model(), system: "", messages: ask("say hello"), timeoutMs: 5000 })).output).toBe("Scripted answer.");
  });

  it("recovers from a 429 with Retry-After when retried", async () => {
    server.setScript([
      { name: "limited", times: 1, fault: { status: 429, retryAfterMs: 40, message: "Rate limit reached" } },
      { name: "ok", reply: { text: "Finally.", usage: { promptTokens: 5, completionTokens: 2 } } },
    ]);
    const waits: number[] = [];
    const record = await runModelTrialWithRetries(
      { model: model(), system: "", messages: ask("q"), timeoutMs: 5000 },
      { sleep: async (ms) => void waits.push(ms) },
    );
    expect(record.error).toBeUndefined();
    expect(record.output).toBe("Finally.");
    expect(record.attempts).toBe(2);
    expect(record.usage).toEqual({ inputTokens: 5, outputTokens: 2 });
    expect(waits).toEqual([40]);
    expect(server.requests.log.map((r) => [r.rule, r.status])).toEqual([
      ["limited", 429],
      ["ok", 200],
    ]);
  });

  it("classifies a 429 without retries as rate_limit with the Retry-After delay", async () => {
    server.setScript([{ fault: { status: 429, retryAfter: 7 } }]);
    const record = await runModelTrial({ model: model(), system: "", messages: ask("q"), timeoutMs: 5000 });
    expect(record.error).toEqual({ kind: "rate_limit", retryable: true, status: 429, message: "Scripted error 429.", retryAfterMs: 7000 });
    expect(server.requests.count).toBe(1);
  });

  it("reports a 500 as a retryable server error after exactly one request (SDK retries off)", async () => {
    server.setScript([{ fault: { status: 500, message: "The server had an error while processing your request." } }]);
    const record = await runModelTrial({ model: model(), system: "", messages: ask("q"), timeoutMs: 5000 });
    expect(record.error).toEqual({
      kind: "server",
      retryable: true,
      status: 500,
      message: "The server had an error while processing your request.",
    });
    expect(record.finishReason).toBe("error");
    expect(server.requests.count).toBe(1);
  });

  it("reports a 502 with a non-JSON body as a retryable server error", async () => {
    server.setScript([{ fault: { status: 502, body: "<html>Bad Gateway</html>" } }]);
    const record = await runModelTrial({ model: model(), system: "", messages: ask("q"), timeoutMs: 5000 });
    expect(record.error).toEqual({ kind: "server", retryable: true, status: 502, message: "Bad Gateway" });
  });

  it("reports a malformed JSON body as a retryable bad_response", async () => {
    server.setScript([{ malformed: true }]);
    const record = await runModelTrial({ model: model(), system: "", messages: ask("q"), timeoutMs: 5000 });
    expect(record.error).toMatchObject({ kind: "bad_response", retryable: true, status: 200 });
    expect(record.error?.message).toMatch(/Invalid JSON response/);
  });

  it("retries a malformed JSON reply like a 5xx: the same backoff, and the attempts counted", async () => {
    const script = (first: ScriptRule) => [first, { name: "ok", reply: { text: "Whole answer.", usage: { promptTokens: 4, completionTokens: 2 } } }];
    const run = async (first: ScriptRule) => {
      server.setScript(script(first));
      server.requests.reset();
      const waits: number[] = [];
      const record = await runModelTrialWithRetries(
        { model: model(), system: "", messages: ask("q"), timeoutMs: 5000 },
        { random: () => 0.5, sleep: async (ms) => void waits.push(ms) },
      );
      return { record, waits, log: server.requests.log.map((r) => [r.rule, r.status]) };
    };
    const malformed = await run({ name: "broken", times: 1, malformed: true });
    const down = await run({ name: "broken", times: 1, fault: { status: 503 } });
    expect(malformed.record.error).toBeUndefined();
    expect(malformed.record.output).toBe("Whole answer.");
    expect(malformed.record.attempts).toBe(2);
    expect(malformed.log).toEqual([
      ["broken", 200],
      ["ok", 200],
    ]);
    expect(malformed.waits).toEqual([375]);
    // Exactly as a 503 is handled.
    expect(down.record.output).toBe("Whole answer.");
    expect([down.record.attempts, down.waits]).toEqual([malformed.record.attempts, malformed.waits]);
  });

  it("gives up on a provider that only answers malformed JSON after the retries, with bad_response", async () => {
    server.setScript([{ name: "broken", malformed: true }]);
    const waits: number[] = [];
    const record = await runModelTrialWithRetries(
      { model: model(), system: "", messages: ask("q"), timeoutMs: 5000 },
      { retries: 2, random: () => 0, sleep: async (ms) => void waits.push(ms) },
    );
    expect(record.error).toMatchObject({ kind: "bad_response", status: 200 });
    expect(record.attempts).toBe(3);
    expect(waits).toEqual([250, 500]);
    expect(server.requests.count).toBe(3);
  });

  it("reports an unknown model as not_found with the server's message", async () => {
    const record = await runModelTrial({ model: model("gpt-nope"), system: "", messages: ask("q"), timeoutMs: 5000 });
    expect(record.error).toEqual({
      kind: "not_found",
      retryable: false,
      status: 404,
      message: "The model `gpt-nope` does not exist or you do not have access to it.",
    });
    const raw = await fetch(`${server.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-nope", messages: [] }),
    });
    expect(raw.status).toBe(404);
    expect(await raw.json()).toEqual({
      error: {
        message: "The model `gpt-nope` does not exist or you do not have access to it.",
        type: "invalid_request_error",
        param: "model",
        code: "model_not_found",
      },
    });
  });

  it("times out on a delayed rule", async () => {
    // The rule answers after a minute: the call can only end by its own 60 ms timeout.
    server.setScript([{ delayMs: 60_000, reply: { text: "too late" } }]);
    const record = await runModelTrial({ model: model(), system: "", messages: ask("q"), timeoutMs: 60 });
    expect(record.error).toEqual({ kind: "timeout", retryable: false, message: "model call timed out after 60 ms" });
  });

  it("applies the server latency to every answer", async () => {
    server.setLatency(60);
    const started = Date.now();
    const result = await testConnection(model());
    expect(result).toMatchObject({ ok: true, text: "Scripted answer." });
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
  });

  it("rejects requests without the configured API key, and accepts the right one", async () => {
    const locked = await startScriptedModelServer({ apiKey: "local-secret-key" });
    try {
      const noKey = createModel({ name: "L", provider: "openai-compatible", baseUrl: locked.url, modelId: "m" }, {});
      const r1 = await testConnection(noKey);
      expect(r1).toEqual({ ok: false, error: { kind: "auth", retryable: false, status: 401, message: "Incorrect API key provided." } });
      const withKey = createModel(
        { name: "L", provider: "openai-compatible", baseUrl: locked.url, modelId: "m", apiKeyEnv: "LOCAL_API_KEY" },
        { LOCAL_API_KEY: "local-secret-key", BENCHWORK_KEY_HOSTS: `LOCAL_API_KEY=${new URL(locked.url).origin}` },
      );
      expect(await testConnection(withKey)).toMatchObject({ ok: true, text: "Scripted answer." });
      // The "openai" provider with a base URL (a proxy) speaks the same Chat Completions protocol.
      const viaOpenAI = createModel(
        { name: "Proxy", provider: "openai", baseUrl: locked.url, modelId: "gpt-4o-mini" },
        {
          OPENAI_API_KEY: "local-secret-key",
          BENCHWORK_KEY_HOSTS: `OPENAI_API_KEY=${new URL(locked.url).origin}`,
        },
      );
      expect(await testConnection(viaOpenAI)).toMatchObject({ ok: true, text: "Scripted answer." });
      expect((locked.requests.log.at(-1)?.body as { model: string }).model).toBe("gpt-4o-mini");
    } finally {
      await locked.close();
    }
  });

  it("streams text and tool calls as server-sent events for streamText", async () => {
    const result = streamText({
      model: model(),
      messages: ask("Where is order_123?"),
      tools: toAiSdkTools([getOrder]),
      maxRetries: 0,
    });
    const calls = await result.toolCalls;
    expect(calls.map((c) => [c.toolCallId, c.toolName, c.input])).toEqual([["call_abc", "get_order", { orderId: "order_123" }]]);
    expect(await result.finishReason).toBe("tool-calls");
    expect((await result.usage).inputTokens).toBe(31);
  });

  it("answers 400 to a body that is not JSON, and 404 to unknown paths", async () => {
    const bad = await fetch(`${server.url}/chat/completions`, { method: "POST", body: "{nope" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("invalid_json");
    const unknown = await fetch(`${server.url}/embeddings`, { method: "POST", body: "{}" });
    expect(unknown.status).toBe(404);
  });

  it("holds its answers after the first N until release(), so a test can act while calls are in flight", async () => {
    const chat = (text: string) =>
      fetch(`${server.url}/chat/completions`, {
        method: "POST",
        body: JSON.stringify({ model: "scripted-1", messages: [{ role: "user", content: text }] }),
      }).then((r) => r.json() as Promise<{ choices: { message: { content: string } }[] }>);
    server.hold({ answerFirst: 1 });
    expect((await chat("first")).choices[0].message.content).toBe("Scripted answer.");
    let answered = 0;
    const later = [chat("second"), chat("third")].map((p) => p.then((r) => (answered++, r)));
    await server.requests.until((n) => n === 3);
    expect(server.requests.held).toBe(2);
    expect(answered).toBe(0);
    server.release();
    expect((await Promise.all(later)).map((r) => r.choices[0].message.content)).toEqual(["Scripted answer.", "Scripted answer."]);
    expect(server.requests.held).toBe(0);
    // Released: later requests are answered at once again.
    expect((await chat("fourth")).choices[0].message.content).toBe("Scripted answer.");
  });

  it("counts chat requests in flight and their peak, and reports each one's user text as it arrives", async () => {
    const texts: string[] = [];
    const counted = await startScriptedModelServer({ onChatRequest: (text) => texts.push(text) });
    try {
      const chat = (text: string, signal?: AbortSignal) =>
        fetch(`${counted.url}/chat/completions`, {
          method: "POST",
          body: JSON.stringify({ model: "m", messages: [{ role: "user", content: text }] }),
          signal,
        });
      counted.hold();
      const abort = new AbortController();
      const dropped = chat("dropped", abort.signal).catch(() => null);
      const answered = [chat("one"), chat("two")];
      await counted.requests.until((n) => n === 3);
      expect([counted.requests.inFlight, counted.requests.peakInFlight]).toEqual([3, 3]);
      expect(texts.sort()).toEqual(["dropped", "one", "two"]);
      // A client that goes away is no longer in flight.
      abort.abort();
      await dropped;
      for (let i = 0; i < 500 && counted.requests.inFlight !== 2; i++) await new Promise((r) => setTimeout(r, 10));
      expect(counted.requests.inFlight).toBe(2);
      counted.release();
      expect((await Promise.all(answered)).map((r) => r.status)).toEqual([200, 200]);
      for (let i = 0; i < 500 && counted.requests.inFlight !== 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect([counted.requests.inFlight, counted.requests.peakInFlight]).toEqual([0, 3]);
      // reset() starts the peak again from what is in flight now.
      counted.requests.reset();
      expect(counted.requests.peakInFlight).toBe(0);
      expect((await chat("three")).status).toBe(200);
      expect(counted.requests.peakInFlight).toBe(1);
    } finally {
      await counted.close();
    }
  });

  it("keeps at most keepRequests entries in the log, oldest dropped", async () => {
    const small = await startScriptedModelServer({ keepRequests: 2 });
    try {
      for (const text of ["a", "b", "c"]) {
        await fetch(`${small.url}/chat/completions`, { method: "POST", body: JSON.stringify({ model: "m", messages: [{ role: "user", content: text }] }) });
      }
      expect(small.requests.count).toBe(3);
      expect(small.requests.log.map((r) => (r.body as { messages: { content: string }[] }).messages[0].content)).toEqual(["b", "c"]);
    } finally {
      await small.close();
    }
  });
});

describe("scripted model server CLI", () => {
  it("starts from a script file and prints its URL", async () => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "e2e/fixtures/scripted-model-server.ts",
        "--port",
        "0",
        "--script",
        "e2e/fixtures/model-scripts/support-orders.json",
        "--latency",
        "5",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = "";
        let err = "";
        child.stdout.on("data", (d: Buffer) => {
          out += d.toString();
          if (out.includes("\n")) resolve(out.split("\n")[0]);
        });
        child.stderr.on("data", (d: Buffer) => (err += d.toString()));
        child.on("exit", (code) => reject(new Error(`exited with ${code}: ${err}`)));
      });
      const match = /^scripted model server listening on (http:\/\/127\.0\.0\.1:(\d+)\/v1)$/.exec(line);
      expect(match).not.toBeNull();
      const url = match![1];
      const cliModel = createModel({ name: "CLI", provider: "openai-compatible", baseUrl: url, modelId: "scripted-2" }, {});
      const record = await runModelTrial({ model: cliModel, system: "", messages: ask("Where is order_123?"), tools: [getOrder], timeoutMs: 5000 });
      expect(record.output).toBe("Delivered.");
      expect(record.usage).toEqual({ inputTokens: 89, outputTokens: 15 });
      const greeting = await runModelTrial({ model: cliModel, system: "", messages: ask("Hello bot"), timeoutMs: 5000 });
      expect(greeting.output).toBe("Hello! How can I help?");
      const unknown = await runModelTrial({
        model: createModel({ name: "x", provider: "openai-compatible", baseUrl: url, modelId: "nope" }, {}),
        system: "",
        messages: ask("q"),
        timeoutMs: 5000,
      });
      expect(unknown.error?.kind).toBe("not_found");
    } finally {
      child.kill("SIGTERM");
    }
  });
});
