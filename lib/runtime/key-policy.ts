/**
 * Which environment variables may hold model keys, and where a key may be sent (security review
 * "Seal the server and the sandboxes", item 2). Without these rules anyone who can save a model
 * configuration could send any server variable (BENCHWORK_DB, a cloud secret) to any URL.
 *
 * 1. Name: a key variable matches {@link KEY_VARIABLE_PATTERN} (`…_API_KEY`) or is listed in
 *    `BENCHWORK_ALLOWED_KEY_VARS` (comma-separated). Any other variable is never read.
 * 2. Host: a key goes only to its provider's own API over https (openai → api.openai.com,
 *    anthropic → api.anthropic.com; an openai-compatible server implies no host) or to an origin the
 *    operator bound the variable to in `BENCHWORK_KEY_HOSTS`:
 *    `VAR=host[:port][,host[:port]…][;VAR=…]`, e.g.
 *    `OPENAI_API_KEY=api.openai.com,my-proxy.internal:8443;TOGETHER_API_KEY=api.together.xyz`.
 *    An entry without a scheme means https (port 443 unless given); plain http must be written
 *    out (`LOCAL_API_KEY=http://127.0.0.1:8000`). Scheme, host and port must all match.
 *
 * Configurations without a key (local servers) are not affected. Pure: the environment is a
 * parameter; nothing here reads `process.env`.
 */
import { apiKeyVariable, DEFAULT_BASE_URL, ENV_VAR_NAME, type ModelConfig, type ModelProvider } from "./model-config";

/** Names allowed as key variables without being listed. */
export const KEY_VARIABLE_PATTERN = /^[A-Z][A-Z0-9_]*_API_KEY$/;
/** Environment variable listing extra key variable names (comma-separated). */
export const ALLOWED_KEY_VARS_ENV = "BENCHWORK_ALLOWED_KEY_VARS";
/** Environment variable binding key variables to hosts (see module doc). */
export const KEY_HOSTS_ENV = "BENCHWORK_KEY_HOSTS";

/** Where a key may go: scheme, lower-case host name (IPv6 in brackets) and port (default ports filled in). */
export interface KeyOrigin {
  protocol: "https:" | "http:";
  hostname: string;
  port: number;
}

/** The operator's rules, parsed from the environment by {@link parseKeyPolicy}. */
export interface KeyPolicy {
  /** Names listed in BENCHWORK_ALLOWED_KEY_VARS (the pattern is checked apart). */
  listedVariables: ReadonlySet<string>;
  /** Hosts each variable is bound to by BENCHWORK_KEY_HOSTS. */
  bindings: ReadonlyMap<string, readonly KeyOrigin[]>;
}

/** Hosts a provider's keys may reach without any binding: its own API, over https. */
export const PROVIDER_KEY_ORIGINS: Record<ModelProvider, readonly KeyOrigin[]> = {
  openai: [{ protocol: "https:", hostname: "api.openai.com", port: 443 }],
  anthropic: [{ protocol: "https:", hostname: "api.anthropic.com", port: 443 }],
  "openai-compatible": [],
};

export type KeyPolicyErrorCode = "key_variable_refused" | "key_host_refused" | "key_policy_invalid";

/**
 * A key use the policy refuses. `field` is the configuration field to fix (`apiKeyEnv` or
 * `baseUrl`). The message names variables and hosts, never a value.
 */
export class KeyPolicyError extends Error {
  override readonly name = "KeyPolicyError";
  constructor(
    readonly code: KeyPolicyErrorCode,
    readonly field: "apiKeyEnv" | "baseUrl",
    message: string,
  ) {
    super(message);
  }
}

const DEFAULT_PORT = { "https:": 443, "http:": 80 } as const;
const NOT_A_NAME = "is not an environment variable name (capital letters, digits and _, not starting with a digit)";
// What URL parsing leaves in a host that DNS never resolves: wildcards and other punctuation.
const HOST_NAME = /^(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)$/;

function originOfUrl(url: URL): KeyOrigin | null {
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  return { protocol: url.protocol, hostname: url.hostname.toLowerCase(), port: url.port === "" ? DEFAULT_PORT[url.protocol] : Number(url.port) };
}

/** Parses one BENCHWORK_KEY_HOSTS host entry; returns the origin or what is wrong with it. */
function parseHostEntry(entry: string): KeyOrigin | string {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(entry);
  if (scheme && !/^https?$/i.test(scheme[1])) return `"${entry}" has a scheme other than http:// or https://`;
  let url: URL;
  try {
    url = new URL(scheme ? entry : `https://${entry}`);
  } catch {
    return `"${entry}" is not a host[:port]`;
  }
  if (
    url.username ||
    url.password ||
    (url.pathname !== "/" && url.pathname !== "") ||
    url.search ||
    url.hash ||
    /[/?#@]/.test(entry.slice(scheme ? scheme[0].length : 0))
  ) {
    return `"${entry}" must be only a host and port, without path, query or user (e.g. my-proxy.internal:8443)`;
  }
  if (!HOST_NAME.test(url.hostname)) return `"${entry}" is not a host name (wildcards are not supported: list each host)`;
  return originOfUrl(url) ?? `"${entry}" is not a host[:port]`;
}

/**
 * Reads the operator's key rules from the environment.
 * @param env environment variables (only BENCHWORK_ALLOWED_KEY_VARS and BENCHWORK_KEY_HOSTS are read)
 * @returns the policy, or every problem found (each names the variable, the entry and what is wrong)
 */
export function parseKeyPolicy(env: Record<string, string | undefined>): { ok: true; policy: KeyPolicy } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const listedVariables = new Set<string>();
  const listed = (env[ALLOWED_KEY_VARS_ENV] ?? "").split(",").map((s) => s.trim());
  listed.forEach((name, i) => {
    if (name === "") return;
    if (ENV_VAR_NAME.test(name)) listedVariables.add(name);
    else problems.push(`${ALLOWED_KEY_VARS_ENV}: "${name}" (entry ${i + 1}) ${NOT_A_NAME}`);
  });

  const bindings = new Map<string, KeyOrigin[]>();
  const segments = (env[KEY_HOSTS_ENV] ?? "").split(";").map((s) => s.trim());
  segments.forEach((segment, i) => {
    if (segment === "") return;
    const where = `${KEY_HOSTS_ENV}: entry ${i + 1}`;
    const eq = segment.indexOf("=");
    if (eq < 0) return void problems.push(`${where} "${segment}" has no "=": write VAR=host[:port],… and separate variables with ";"`);
    const variable = segment.slice(0, eq).trim();
    if (!ENV_VAR_NAME.test(variable)) return void problems.push(`${where}: "${variable}" ${NOT_A_NAME}`);
    const hosts = segment
      .slice(eq + 1)
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "");
    if (hosts.length === 0) return void problems.push(`${where} binds ${variable} to no host`);
    const origins = bindings.get(variable) ?? [];
    for (const host of hosts) {
      const o = parseHostEntry(host);
      if (typeof o === "string") problems.push(`${where} (${variable}): ${o}`);
      else origins.push(o);
    }
    bindings.set(variable, origins);
  });
  return problems.length ? { ok: false, problems } : { ok: true, policy: { listedVariables, bindings } };
}

/** Whether `name` may hold a key under `policy` (the pattern, or listed by the operator). */
export function isAllowedKeyVariable(name: string, policy: KeyPolicy): boolean {
  return KEY_VARIABLE_PATTERN.test(name) || policy.listedVariables.has(name);
}

/** Whether `url` is on one of `origins` (scheme, host and port all equal). */
export function keyOriginAllowed(url: URL, origins: readonly KeyOrigin[]): boolean {
  const o = originOfUrl(url);
  return o !== null && origins.some((a) => a.protocol === o.protocol && a.hostname === o.hostname && a.port === o.port);
}

/** How an origin is written in BENCHWORK_KEY_HOSTS: `host` (https, 443), `host:port` (https), `http://host[:port]`. */
export function formatKeyOrigin(o: KeyOrigin): string {
  const host = o.port === DEFAULT_PORT[o.protocol] ? o.hostname : `${o.hostname}:${o.port}`;
  return o.protocol === "https:" ? host : `http://${host}`;
}

/** The outcome of {@link decideKeyUse}: the variable to read (none: send no key) and where it may go. */
export type KeyUse = { ok: true; variable: string | undefined; origins: readonly KeyOrigin[] } | { ok: false; error: KeyPolicyError };

/**
 * Decides whether a configuration's key may be read and sent to its base URL. Reads no variable
 * but the two policy variables: the key itself is read by the caller only when this says ok.
 * @param config provider, `apiKeyEnv` and `baseUrl` (the provider's default URL when absent)
 * @param env environment variables (BENCHWORK_ALLOWED_KEY_VARS, BENCHWORK_KEY_HOSTS)
 * @returns `{ ok: true, variable, origins }` (variable undefined: no key, nothing to check) or
 *   `{ ok: false, error }` with a {@link KeyPolicyError} naming the variable, the host and the fix
 */
export function decideKeyUse(config: Pick<ModelConfig, "provider" | "apiKeyEnv" | "baseUrl">, env: Record<string, string | undefined>): KeyUse {
  const variable = apiKeyVariable(config);
  if (variable === undefined) return { ok: true, variable: undefined, origins: [] };
  const parsed = parseKeyPolicy(env);
  if (!parsed.ok) {
    return {
      ok: false,
      error: new KeyPolicyError(
        "key_policy_invalid",
        "apiKeyEnv",
        `No API key is sent while the server's key settings are invalid: ${parsed.problems.join("; ")}.`,
      ),
    };
  }
  const { policy } = parsed;
  if (!isAllowedKeyVariable(variable, policy)) {
    return {
      ok: false,
      error: new KeyPolicyError(
        "key_variable_refused",
        "apiKeyEnv",
        `${variable} is not an allowed API key variable: a key variable's name must end in _API_KEY (^[A-Z][A-Z0-9_]*_API_KEY$, e.g. OPENAI_API_KEY) or be listed in ${ALLOWED_KEY_VARS_ENV} on the server.`,
      ),
    };
  }
  const origins = [...PROVIDER_KEY_ORIGINS[config.provider], ...(policy.bindings.get(variable) ?? [])];
  const base = config.baseUrl ?? (config.provider === "openai-compatible" ? undefined : DEFAULT_BASE_URL[config.provider]);
  let url: URL | null = null;
  try {
    url = base === undefined ? null : new URL(base);
  } catch {
    url = null;
  }
  if (url && keyOriginAllowed(url, origins)) return { ok: true, variable, origins };
  const target = url ? originOfUrl(url) : null;
  const shown = target ? formatKeyOrigin(target) : (base ?? "no base URL");
  const allowed = origins.length ? origins.map(formatKeyOrigin).join(", ") : "no host yet";
  return {
    ok: false,
    error: new KeyPolicyError(
      "key_host_refused",
      "baseUrl",
      `The key in ${variable} may not be sent to ${shown} (from the base URL). It may go to: ${allowed}. To allow this host, the server operator adds it to ${KEY_HOSTS_ENV}, e.g. ${KEY_HOSTS_ENV}="${variable}=${shown}".`,
    ),
  };
}

/** What the Models page may say about a configuration's key. */
export interface KeyStatus {
  /** The variable named by the configuration (or the provider's default); absent when it needs no key. */
  variable?: string;
  required: boolean;
  /** Whether the variable is set (non-blank). Always false for a refused variable, which is never read. */
  present: boolean;
  /** Why the key would not be used, when refused. */
  refused?: { code: KeyPolicyErrorCode; message: string };
}

/**
 * Whether a configuration's key is available, for settings pages. Never returns a value, and only
 * looks at variables the policy allows, so the page cannot tell whether other variables exist.
 * @param env environment variables (passed in by the shell)
 */
export function apiKeyStatus(config: Pick<ModelConfig, "provider" | "apiKeyEnv" | "baseUrl">, env: Record<string, string | undefined>): KeyStatus {
  const variable = apiKeyVariable(config);
  if (variable === undefined) return { required: false, present: false };
  const use = decideKeyUse(config, env);
  if (!use.ok && use.error.code !== "key_host_refused")
    return { variable, required: true, present: false, refused: { code: use.error.code, message: use.error.message } };
  const value = env[variable];
  const present = typeof value === "string" && value.trim() !== "";
  return { variable, required: true, present, ...(use.ok ? {} : { refused: { code: use.error.code, message: use.error.message } }) };
}
