import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { openMemoryDatabase, type Db } from "@/db/client";
import { createModelConfig, listModelConfigs } from "@/db/queries/models";
import { LibraryError } from "@/lib/library/errors";
import { addModelConfig, editModelConfig, modelConfigRows, testModelConfig } from "./models";
import { nodeFetch } from "./http-fetch";

let server: http.Server;
let hostPort: string;
let requests = 0;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    requests++;
    req.resume();
    req.on("end", () =>
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id: "c",
          object: "chat.completion",
          created: 1,
          model: "m",
          choices: [{ index: 0, message: { role: "assistant", content: "OK" }, finish_reason: "stop" }],
        }),
      ),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  hostPort = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

let db: Db;
beforeEach(() => {
  db = openMemoryDatabase();
  requests = 0;
});

/** An environment that records which variables were read. */
function recordingEnv(values: Record<string, string>) {
  const read: string[] = [];
  const env = new Proxy(values as Record<string, string | undefined>, { get: (t, k) => (typeof k === "string" && read.push(k), t[k as string]) });
  return { env, read };
}

const caught = async (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

describe("saving a model configuration applies the key policy", () => {
  it("refuses a key variable outside the rule with a field error on apiKeyEnv naming the rule; nothing is stored", async () => {
    const e = await caught(
      addModelConfig(db, { name: "exfil", provider: "openai-compatible", modelId: "m", baseUrl: "https://attacker.example/v1", apiKeyEnv: "BENCHWORK_DB" }, {}),
    );
    expect(e).toBeInstanceOf(LibraryError);
    expect((e as LibraryError).code).toBe("validation");
    expect((e as LibraryError).fieldErrors?.apiKeyEnv).toMatch(
      /^BENCHWORK_DB is not an allowed API key variable: a key variable's name must end in _API_KEY .* or be listed in BENCHWORK_ALLOWED_KEY_VARS/,
    );
    expect(await listModelConfigs(db)).toEqual([]);
  });

  it("refuses a base URL whose host is not allowed for the key, with a field error on baseUrl naming host and variable", async () => {
    const e = await caught(
      addModelConfig(
        db,
        { name: "exfil", provider: "openai-compatible", modelId: "m", baseUrl: "https://attacker.example/v1", apiKeyEnv: "OPENAI_API_KEY" },
        {},
      ),
    );
    expect((e as LibraryError).fieldErrors?.baseUrl).toMatch(
      /^The key in OPENAI_API_KEY may not be sent to attacker\.example .*BENCHWORK_KEY_HOSTS="OPENAI_API_KEY=attacker\.example"/,
    );
    expect(await listModelConfigs(db)).toEqual([]);
  });

  it("keeps the shape errors and adds the policy's (one message per field)", async () => {
    const e = await caught(addModelConfig(db, { name: "", provider: "openai", modelId: "gpt-4o", apiKeyEnv: "HOME" }, {}));
    expect((e as LibraryError).fieldErrors).toEqual({
      name: "Name is required",
      apiKeyEnv: expect.stringContaining("HOME is not an allowed API key variable"),
    });
  });

  it("stores allowed configurations: a provider default, a bound host, a keyless local server", async () => {
    const env = { BENCHWORK_KEY_HOSTS: `LOCAL_API_KEY=http://${hostPort}` };
    await addModelConfig(db, { name: "GPT", provider: "openai", modelId: "gpt-4o-mini" }, env);
    await addModelConfig(db, { name: "Local", provider: "openai-compatible", modelId: "m", baseUrl: `http://${hostPort}/v1`, apiKeyEnv: "LOCAL_API_KEY" }, env);
    await addModelConfig(db, { name: "Ollama", provider: "openai-compatible", modelId: "llama3.1", baseUrl: "http://127.0.0.1:11434/v1" }, {});
    expect((await listModelConfigs(db)).map((c) => c.name)).toEqual(["GPT", "Local", "Ollama"]);
  });

  it("refuses an edit that points an existing key at another host; the stored row is unchanged", async () => {
    const id = await addModelConfig(db, { name: "GPT", provider: "openai", modelId: "gpt-4o-mini" }, {});
    const e = await caught(editModelConfig(db, id, { name: "GPT", provider: "openai", modelId: "gpt-4o-mini", baseUrl: "https://attacker.example/v1" }, {}));
    expect((e as LibraryError).fieldErrors?.baseUrl).toContain("may not be sent to attacker.example");
    expect((await listModelConfigs(db))[0].baseUrl).toBeUndefined();
  });
});

describe("Test connection of a configuration stored before the policy", () => {
  it("refuses a stored variable outside the rule without reading it or making any request", async () => {
    const id = await createModelConfig(db, {
      name: "old",
      provider: "openai-compatible",
      modelId: "m",
      baseUrl: `http://${hostPort}/v1`,
      apiKeyEnv: "BENCHWORK_DB",
    });
    const { env, read } = recordingEnv({ BENCHWORK_DB: "/srv/benchwork.db" });
    const r = await testModelConfig(db, id, env, nodeFetch);
    expect(r).toEqual({ ok: false, error: expect.stringMatching(/^BENCHWORK_DB is not an allowed API key variable/) });
    expect(requests).toBe(0);
    expect(read).not.toContain("BENCHWORK_DB");
  });

  it("refuses a stored host not bound to the key without any request", async () => {
    const id = await createModelConfig(db, { name: "old proxy", provider: "openai", modelId: "gpt-4o-mini", baseUrl: `http://${hostPort}/v1` });
    const r = await testModelConfig(db, id, { OPENAI_API_KEY: "sk-real" }, nodeFetch);
    expect(r).toEqual({ ok: false, error: expect.stringContaining(`The key in OPENAI_API_KEY may not be sent to http://${hostPort}`) });
    expect(requests).toBe(0);
  });

  it("calls a bound host with its key, and a keyless server as before", async () => {
    const bound = await createModelConfig(db, {
      name: "bound",
      provider: "openai-compatible",
      modelId: "m",
      baseUrl: `http://${hostPort}/v1`,
      apiKeyEnv: "LOCAL_API_KEY",
    });
    const keyless = await createModelConfig(db, { name: "keyless", provider: "openai-compatible", modelId: "m", baseUrl: `http://${hostPort}/v1` });
    expect(await testModelConfig(db, bound, { LOCAL_API_KEY: "k", BENCHWORK_KEY_HOSTS: `LOCAL_API_KEY=http://${hostPort}` }, nodeFetch)).toMatchObject({
      ok: true,
      text: "OK",
    });
    expect(await testModelConfig(db, keyless, {}, nodeFetch)).toMatchObject({ ok: true, text: "OK" });
    expect(requests).toBe(2);
  });

  it("says which configuration does not exist", async () => {
    const e = await caught(testModelConfig(db, 99, {}, nodeFetch));
    expect(e).toMatchObject({ code: "not_found", message: "Model configuration #99 does not exist." });
  });
});

describe("the Models page rows", () => {
  it("show set / not set only for allowed variables and never read a refused one", async () => {
    await createModelConfig(db, { name: "a GPT", provider: "openai", modelId: "gpt-4o-mini" });
    await createModelConfig(db, {
      name: "b probe",
      provider: "openai-compatible",
      modelId: "m",
      baseUrl: "http://127.0.0.1:1/v1",
      apiKeyEnv: "AWS_SECRET_ACCESS_KEY",
    });
    await createModelConfig(db, { name: "c local", provider: "openai-compatible", modelId: "m", baseUrl: "http://127.0.0.1:1/v1" });
    const { env, read } = recordingEnv({ OPENAI_API_KEY: "sk-x", AWS_SECRET_ACCESS_KEY: "aws" });
    const rows = await modelConfigRows(db, env);
    expect(rows.map((r) => [r.name, r.key])).toEqual([
      ["a GPT", { variable: "OPENAI_API_KEY", required: true, present: true }],
      [
        "b probe",
        {
          variable: "AWS_SECRET_ACCESS_KEY",
          required: true,
          present: false,
          refused: { code: "key_variable_refused", message: expect.stringContaining("is not an allowed API key variable") },
        },
      ],
      ["c local", { required: false, present: false }],
    ]);
    expect(read).not.toContain("AWS_SECRET_ACCESS_KEY");
    expect(JSON.stringify(rows)).not.toContain("sk-x");
  });
});
