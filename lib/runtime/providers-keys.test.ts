/**
 * createModel keeps keys where the operator allows them (security review: "Seal the server and the
 * sandboxes", item 2): a refused variable or host makes no HTTP request at all, and a key-bearing
 * request never follows a redirect. Real loopback servers on port 0 count what reaches them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createModel, testConnection, type ModelConfig } from "./providers";
import { KeyPolicyError } from "./key-policy";

interface Counting {
  url: string;
  hostPort: string;
  requests: { path: string; headers: http.IncomingHttpHeaders }[];
  close: () => Promise<void>;
}

/** A loopback server that records every request and answers with `respond`. */
async function countingServer(respond: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Counting> {
  const requests: Counting["requests"] = [];
  const server = http.createServer((req, res) => {
    requests.push({ path: req.url ?? "", headers: req.headers });
    req.resume();
    req.on("end", () => respond(req, res));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const hostPort = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `http://${hostPort}/v1`, hostPort, requests, close: () => new Promise((r) => server.close(() => r())) };
}

const chatCompletion = JSON.stringify({
  id: "c1",
  object: "chat.completion",
  created: 1,
  model: "m",
  choices: [{ index: 0, message: { role: "assistant", content: "OK" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});

let target: Counting;
let redirector: Counting;
beforeAll(async () => {
  target = await countingServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(chatCompletion));
  redirector = await countingServer((req, res) => res.writeHead(307, { location: `http://${target.hostPort}${req.url}` }).end());
});
afterAll(async () => {
  await target.close();
  await redirector.close();
});

/** Builds the model and tests the connection; returns what was thrown by createModel, if anything. */
async function tryConnection(config: ModelConfig, env: Record<string, string | undefined>) {
  let model;
  try {
    model = createModel(config, env);
  } catch (e) {
    return { thrown: e as Error };
  }
  return { result: await testConnection(model, { timeoutMs: 5_000 }) };
}

describe("createModel refuses before any request", () => {
  it("a variable outside the rule (BENCHWORK_DB) is refused and never read; the server sees nothing", async () => {
    const before = target.requests.length;
    const read: string[] = [];
    const env = new Proxy({ BENCHWORK_DB: "/tmp/secret.db" } as Record<string, string | undefined>, {
      get: (t, k) => (typeof k === "string" && read.push(k), t[k as string]),
    });
    const r = await tryConnection({ name: "exfil", provider: "openai-compatible", modelId: "m", baseUrl: target.url, apiKeyEnv: "BENCHWORK_DB" }, env);
    expect(r.thrown).toBeInstanceOf(KeyPolicyError);
    expect(r.thrown?.message).toMatch(/BENCHWORK_DB is not an allowed API key variable/);
    expect(target.requests.length - before).toBe(0);
    expect(read).not.toContain("BENCHWORK_DB");
  });

  it("an allowed key is refused for a host not bound to it; the server sees nothing", async () => {
    const before = target.requests.length;
    const r = await tryConnection(
      { name: "exfil", provider: "openai-compatible", modelId: "m", baseUrl: target.url, apiKeyEnv: "OPENAI_API_KEY" },
      { OPENAI_API_KEY: "sk-real" },
    );
    expect(r.thrown).toBeInstanceOf(KeyPolicyError);
    expect(r.thrown?.message).toContain(`may not be sent to http://${target.hostPort} (from the base URL)`);
    expect(r.thrown?.message).toContain(`BENCHWORK_KEY_HOSTS="OPENAI_API_KEY=http://${target.hostPort}"`);
    const proxy = await tryConnection({ name: "proxy", provider: "openai", modelId: "gpt-4o-mini", baseUrl: target.url }, { OPENAI_API_KEY: "sk-real" });
    expect(proxy.thrown).toBeInstanceOf(KeyPolicyError);
    expect(target.requests.length - before).toBe(0);
  });

  it("the same key goes to the host once the operator binds it", async () => {
    const before = target.requests.length;
    const r = await tryConnection(
      { name: "bound", provider: "openai-compatible", modelId: "m", baseUrl: target.url, apiKeyEnv: "LOCAL_API_KEY" },
      { LOCAL_API_KEY: "sk-local", BENCHWORK_KEY_HOSTS: `LOCAL_API_KEY=http://${target.hostPort}` },
    );
    expect(r.result).toMatchObject({ ok: true, text: "OK" });
    expect(target.requests.length - before).toBe(1);
    expect(target.requests.at(-1)?.headers.authorization).toBe("Bearer sk-local");
  });
});

describe("a key-bearing request never follows a redirect", () => {
  it("Anthropic's x-api-key is not carried to the host a bound proxy redirects to (global fetch)", async () => {
    const before = target.requests.length;
    const r = await tryConnection(
      { name: "claude via proxy", provider: "anthropic", modelId: "claude-x", baseUrl: redirector.url },
      { ANTHROPIC_API_KEY: "sk-ant-secret", BENCHWORK_KEY_HOSTS: `ANTHROPIC_API_KEY=http://${redirector.hostPort}` },
    );
    expect(redirector.requests.at(-1)?.headers["x-api-key"]).toBe("sk-ant-secret");
    expect(r.result).toMatchObject({ ok: false, error: { status: 307 } });
    expect(target.requests.length - before).toBe(0);
  });

  it("an OpenAI-compatible request with a key is not replayed at the redirect's target either", async () => {
    const before = target.requests.length;
    const r = await tryConnection(
      { name: "compat via proxy", provider: "openai-compatible", modelId: "m", baseUrl: redirector.url, apiKeyEnv: "LOCAL_API_KEY" },
      { LOCAL_API_KEY: "sk-local", BENCHWORK_KEY_HOSTS: `LOCAL_API_KEY=http://${redirector.hostPort}` },
    );
    expect(r.result).toMatchObject({ ok: false, error: { status: 307 } });
    expect(target.requests.length - before).toBe(0);
  });
});
