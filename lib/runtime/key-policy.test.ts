import { describe, expect, it } from "vitest";
import {
  ALLOWED_KEY_VARS_ENV,
  KEY_HOSTS_ENV,
  KeyPolicyError,
  apiKeyStatus,
  decideKeyUse,
  isAllowedKeyVariable,
  keyOriginAllowed,
  parseKeyPolicy,
  type KeyPolicy,
} from "./key-policy";

/** The policy of `env`, failing the test when it does not parse. */
function policyOf(env: Record<string, string | undefined>): KeyPolicy {
  const r = parseKeyPolicy(env);
  if (!r.ok) throw new Error(`unexpected policy problems: ${r.problems.join("; ")}`);
  return r.policy;
}

const problemsOf = (env: Record<string, string | undefined>) => {
  const r = parseKeyPolicy(env);
  return r.ok ? [] : r.problems;
};

/** An environment that records which variables were read. */
function recordingEnv(values: Record<string, string>) {
  const read: string[] = [];
  const env = new Proxy(values as Record<string, string | undefined>, {
    get(target, name) {
      if (typeof name === "string") read.push(name);
      return target[name as string];
    },
  });
  return { env, read };
}

describe("key variable names", () => {
  it("allows names ending in _API_KEY and refuses every other name by default", () => {
    const policy = policyOf({});
    for (const name of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "TOGETHER_API_KEY", "X_API_KEY", "TEAM2_OPENAI_API_KEY"])
      expect(isAllowedKeyVariable(name, policy), name).toBe(true);
    for (const name of [
      "BENCHWORK_DB",
      "HOME",
      "PATH",
      "OPENAI_KEY",
      "API_KEY",
      "_API_KEY",
      "1X_API_KEY",
      "MY_API_KEY_2",
      "openai_api_key",
      "AWS_SECRET_ACCESS_KEY",
    ]) {
      expect(isAllowedKeyVariable(name, policy), name).toBe(false);
    }
  });

  it("also allows the names listed in BENCHWORK_ALLOWED_KEY_VARS (comma-separated, spaces ignored)", () => {
    const policy = policyOf({ [ALLOWED_KEY_VARS_ENV]: " VLLM_TOKEN, HF_TOKEN ,," });
    expect(isAllowedKeyVariable("VLLM_TOKEN", policy)).toBe(true);
    expect(isAllowedKeyVariable("HF_TOKEN", policy)).toBe(true);
    expect(isAllowedKeyVariable("OPENAI_API_KEY", policy)).toBe(true);
    expect(isAllowedKeyVariable("BENCHWORK_DB", policy)).toBe(false);
  });

  it("reports a listed name that is not an environment variable name", () => {
    expect(problemsOf({ [ALLOWED_KEY_VARS_ENV]: "VLLM_TOKEN,my-token" })).toEqual([
      'BENCHWORK_ALLOWED_KEY_VARS: "my-token" (entry 2) is not an environment variable name (capital letters, digits and _, not starting with a digit)',
    ]);
  });
});

describe("BENCHWORK_KEY_HOSTS", () => {
  it("binds variables to hosts: VAR=host[:port],…;VAR=… (no scheme means https)", () => {
    const policy = policyOf({
      [KEY_HOSTS_ENV]: " OPENAI_API_KEY = api.openai.com, my-proxy.internal:8443 ; TOGETHER_API_KEY=API.Together.XYZ;LOCAL_API_KEY=http://127.0.0.1:4010;",
    });
    expect(policy.bindings.get("OPENAI_API_KEY")).toEqual([
      { protocol: "https:", hostname: "api.openai.com", port: 443 },
      { protocol: "https:", hostname: "my-proxy.internal", port: 8443 },
    ]);
    expect(policy.bindings.get("TOGETHER_API_KEY")).toEqual([{ protocol: "https:", hostname: "api.together.xyz", port: 443 }]);
    expect(policy.bindings.get("LOCAL_API_KEY")).toEqual([{ protocol: "http:", hostname: "127.0.0.1", port: 4010 }]);
  });

  it("merges repeated variables", () => {
    const policy = policyOf({ [KEY_HOSTS_ENV]: "A_API_KEY=a.example;A_API_KEY=b.example:444" });
    expect(policy.bindings.get("A_API_KEY")?.map((o) => `${o.hostname}:${o.port}`)).toEqual(["a.example:443", "b.example:444"]);
  });

  it("names the entry and what is wrong for each malformed part", () => {
    const cases: [string, string][] = [
      ["OPENAI_API_KEY", 'BENCHWORK_KEY_HOSTS: entry 1 "OPENAI_API_KEY" has no "=": write VAR=host[:port],… and separate variables with ";"'],
      [
        "openai=api.openai.com",
        'BENCHWORK_KEY_HOSTS: entry 1: "openai" is not an environment variable name (capital letters, digits and _, not starting with a digit)',
      ],
      ["X_API_KEY=", "BENCHWORK_KEY_HOSTS: entry 1 binds X_API_KEY to no host"],
      [
        "X_API_KEY=proxy.example/v1",
        'BENCHWORK_KEY_HOSTS: entry 1 (X_API_KEY): "proxy.example/v1" must be only a host and port, without path, query or user (e.g. my-proxy.internal:8443)',
      ],
      [
        "X_API_KEY=user@proxy.example",
        'BENCHWORK_KEY_HOSTS: entry 1 (X_API_KEY): "user@proxy.example" must be only a host and port, without path, query or user (e.g. my-proxy.internal:8443)',
      ],
      ["X_API_KEY=ftp://proxy.example", 'BENCHWORK_KEY_HOSTS: entry 1 (X_API_KEY): "ftp://proxy.example" has a scheme other than http:// or https://'],
      ["X_API_KEY=*.example.com", 'BENCHWORK_KEY_HOSTS: entry 1 (X_API_KEY): "*.example.com" is not a host name (wildcards are not supported: list each host)'],
      ["X_API_KEY=proxy.example:99999", 'BENCHWORK_KEY_HOSTS: entry 1 (X_API_KEY): "proxy.example:99999" is not a host[:port]'],
      ["A_API_KEY=a.example;B_API_KEY", 'BENCHWORK_KEY_HOSTS: entry 2 "B_API_KEY" has no "=": write VAR=host[:port],… and separate variables with ";"'],
    ];
    for (const [value, message] of cases) expect(problemsOf({ [KEY_HOSTS_ENV]: value }), value).toEqual([message]);
  });

  it("compares scheme, host and port (default ports included)", () => {
    const [https443] = policyOf({ [KEY_HOSTS_ENV]: "A_API_KEY=proxy.example" }).bindings.get("A_API_KEY")!;
    expect(keyOriginAllowed(new URL("https://proxy.example/v1"), [https443])).toBe(true);
    expect(keyOriginAllowed(new URL("https://PROXY.example:443/v1"), [https443])).toBe(true);
    expect(keyOriginAllowed(new URL("http://proxy.example/v1"), [https443])).toBe(false);
    expect(keyOriginAllowed(new URL("https://proxy.example:8443/v1"), [https443])).toBe(false);
    expect(keyOriginAllowed(new URL("https://proxy.example.evil.test/v1"), [https443])).toBe(false);
    expect(keyOriginAllowed(new URL("https://evil.test/proxy.example"), [https443])).toBe(false);
  });
});

describe("decideKeyUse", () => {
  const bound = { [KEY_HOSTS_ENV]: "OPENAI_API_KEY=my-proxy.internal:8443;TOGETHER_API_KEY=api.together.xyz;LOCAL_API_KEY=http://127.0.0.1:4010" };

  it("sends OpenAI and Anthropic keys to their own API over https by default", () => {
    expect(decideKeyUse({ provider: "openai" }, {})).toMatchObject({ ok: true, variable: "OPENAI_API_KEY" });
    expect(decideKeyUse({ provider: "openai", baseUrl: "https://api.openai.com/v1" }, {})).toMatchObject({ ok: true, variable: "OPENAI_API_KEY" });
    expect(decideKeyUse({ provider: "anthropic" }, {})).toMatchObject({ ok: true, variable: "ANTHROPIC_API_KEY" });
    expect(decideKeyUse({ provider: "anthropic", apiKeyEnv: "TEAM_ANTHROPIC_API_KEY" }, {})).toMatchObject({ ok: true, variable: "TEAM_ANTHROPIC_API_KEY" });
  });

  it("refuses another host, naming the host and the variable and how to allow it", () => {
    const r = decideKeyUse({ provider: "openai", baseUrl: "https://attacker.example/v1" }, {});
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toBeInstanceOf(KeyPolicyError);
    expect(r.error.code).toBe("key_host_refused");
    expect(r.error.field).toBe("baseUrl");
    expect(r.error.message).toBe(
      'The key in OPENAI_API_KEY may not be sent to attacker.example (from the base URL). It may go to: api.openai.com. To allow this host, the server operator adds it to BENCHWORK_KEY_HOSTS, e.g. BENCHWORK_KEY_HOSTS="OPENAI_API_KEY=attacker.example".',
    );
    // Plain http to the provider's host would expose the key on the way.
    expect(decideKeyUse({ provider: "openai", baseUrl: "http://api.openai.com/v1" }, {})).toMatchObject({ ok: false, error: { code: "key_host_refused" } });
    expect(decideKeyUse({ provider: "anthropic", baseUrl: "https://api.openai.com/v1" }, {})).toMatchObject({ ok: false, error: { code: "key_host_refused" } });
  });

  it("sends a key to the hosts the operator bound its variable to, and only those (port included)", () => {
    expect(decideKeyUse({ provider: "openai", baseUrl: "https://my-proxy.internal:8443/v1" }, bound)).toMatchObject({ ok: true, variable: "OPENAI_API_KEY" });
    expect(decideKeyUse({ provider: "openai", baseUrl: "https://my-proxy.internal/v1" }, bound)).toMatchObject({
      ok: false,
      error: { code: "key_host_refused" },
    });
    expect(decideKeyUse({ provider: "openai-compatible", baseUrl: "https://api.together.xyz/v1", apiKeyEnv: "TOGETHER_API_KEY" }, bound)).toMatchObject({
      ok: true,
      variable: "TOGETHER_API_KEY",
    });
    expect(decideKeyUse({ provider: "openai-compatible", baseUrl: "http://127.0.0.1:4010/v1", apiKeyEnv: "LOCAL_API_KEY" }, bound)).toMatchObject({ ok: true });
    const other = decideKeyUse({ provider: "openai-compatible", baseUrl: "http://127.0.0.1:4011/v1", apiKeyEnv: "LOCAL_API_KEY" }, bound);
    expect(other).toMatchObject({ ok: false, error: { code: "key_host_refused" } });
    if (!other.ok) expect(other.error.message).toContain('BENCHWORK_KEY_HOSTS="LOCAL_API_KEY=http://127.0.0.1:4011"');
  });

  it("gives an openai-compatible server with a key no default host: its host must be bound", () => {
    const r = decideKeyUse({ provider: "openai-compatible", baseUrl: "https://api.openai.com/v1", apiKeyEnv: "OPENAI_API_KEY" }, {});
    expect(r).toMatchObject({ ok: false, error: { code: "key_host_refused", field: "baseUrl" } });
    if (!r.ok) expect(r.error.message).toContain("It may go to: no host yet.");
  });

  it("leaves configurations without a key alone (local servers)", () => {
    expect(decideKeyUse({ provider: "openai-compatible", baseUrl: "http://127.0.0.1:11434/v1" }, {})).toEqual({ ok: true, variable: undefined, origins: [] });
    expect(decideKeyUse({ provider: "openai-compatible", baseUrl: "http://127.0.0.1:11434/v1" }, { [KEY_HOSTS_ENV]: "broken" })).toEqual({
      ok: true,
      variable: undefined,
      origins: [],
    });
  });

  it("refuses a variable name outside the rule, naming the rule, before looking at the host", () => {
    const r = decideKeyUse({ provider: "openai-compatible", baseUrl: "https://attacker.example/v1", apiKeyEnv: "BENCHWORK_DB" }, {});
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe("key_variable_refused");
    expect(r.error.field).toBe("apiKeyEnv");
    expect(r.error.message).toBe(
      "BENCHWORK_DB is not an allowed API key variable: a key variable's name must end in _API_KEY (^[A-Z][A-Z0-9_]*_API_KEY$, e.g. OPENAI_API_KEY) or be listed in BENCHWORK_ALLOWED_KEY_VARS on the server.",
    );
  });

  it("refuses every key while the policy variables are malformed, saying which", () => {
    const r = decideKeyUse({ provider: "openai" }, { [KEY_HOSTS_ENV]: "OPENAI_API_KEY" });
    expect(r).toMatchObject({ ok: false, error: { code: "key_policy_invalid", field: "apiKeyEnv" } });
    if (!r.ok)
      expect(r.error.message).toMatch(
        /^No API key is sent while the server's key settings are invalid: BENCHWORK_KEY_HOSTS: entry 1 "OPENAI_API_KEY" has no "="/,
      );
  });
});

describe("apiKeyStatus", () => {
  it("says whether an allowed variable is set, never its value", () => {
    expect(apiKeyStatus({ provider: "openai" }, { OPENAI_API_KEY: "sk-x" })).toEqual({ variable: "OPENAI_API_KEY", required: true, present: true });
    expect(apiKeyStatus({ provider: "anthropic", apiKeyEnv: "A_API_KEY" }, { A_API_KEY: "  " })).toEqual({
      variable: "A_API_KEY",
      required: true,
      present: false,
    });
    expect(apiKeyStatus({ provider: "openai-compatible", baseUrl: "http://127.0.0.1:1/v1" }, {})).toEqual({ required: false, present: false });
  });

  it("never reads a refused variable, so the page cannot tell whether it exists", () => {
    const { env, read } = recordingEnv({ BENCHWORK_DB: "/secret/place.db" });
    const status = apiKeyStatus({ provider: "openai-compatible", baseUrl: "https://attacker.example/v1", apiKeyEnv: "BENCHWORK_DB" }, env);
    expect(status).toEqual({
      variable: "BENCHWORK_DB",
      required: true,
      present: false,
      refused: { code: "key_variable_refused", message: expect.stringContaining("BENCHWORK_DB is not an allowed API key variable") },
    });
    expect(read).not.toContain("BENCHWORK_DB");
  });

  it("reports a refused host beside whether the (allowed) variable is set", () => {
    const status = apiKeyStatus({ provider: "openai", baseUrl: "https://attacker.example/v1" }, { OPENAI_API_KEY: "sk-x" });
    expect(status).toMatchObject({ variable: "OPENAI_API_KEY", required: true, present: true, refused: { code: "key_host_refused" } });
  });
});
