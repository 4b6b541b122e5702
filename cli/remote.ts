/**
 * The CLI's client of a team server's HTTP API (`--server URL`, token from `BENCHWORK_TOKEN`,
 * issue 19). Errors become CliErrors of one line: a refused token or a role that may not do this
 * (401/403) and bad options (400/404) exit 2; a conflict, unusable input or a server failure exit 1.
 */
import { CliError, usage } from "./io";
import type { ApiError } from "@/lib/api/schemas";

/** A failed call: the HTTP status and the server's error. */
export class RemoteError extends Error {
  constructor(
    readonly status: number,
    readonly error: ApiError,
  ) {
    super(error.message);
    this.name = "RemoteError";
  }
}

/** A connection to one server. */
export interface Remote {
  /** The server's base URL, as given (for messages). */
  url: string;
  /**
   * Calls `path` (under the server's URL) with an optional JSON body.
   * @returns the parsed JSON response of a 2xx
   * @throws CliError (exit 2) for a refused token, a forbidden call or an unreachable server;
   *   RemoteError for any other error response (the caller words it)
   */
  call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T>;
}

/**
 * A client for `server` with `token` (no Authorization header without one).
 * @throws CliError (exit 2) when `server` is not an http(s) URL
 */
export function connect(server: string, token: string | undefined): Remote {
  let base: URL;
  try {
    base = new URL(server.endsWith("/") ? server : `${server}/`);
  } catch {
    throw usage(`--server: "${server}" is not a URL (write e.g. https://bench.example.com)`);
  }
  if (base.protocol !== "http:" && base.protocol !== "https:") throw usage(`--server: "${server}" must be an http:// or https:// URL`);
  if (token !== undefined && !/^[\x21-\x7e]+$/.test(token)) throw usage("BENCHWORK_TOKEN holds characters a token cannot have (spaces, line breaks?)");
  return {
    url: server,
    async call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
      const url = new URL(path.replace(/^\//, ""), base);
      let res: Response;
      try {
        res = await fetch(url, {
          method,
          headers: {
            accept: "application/json",
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(body !== undefined ? { "content-type": "application/json" } : {}),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (e) {
        const cause = (e as { cause?: { code?: string; message?: string } }).cause;
        throw usage(`cannot reach ${server}: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
      }
      const text = await res.text();
      let json: unknown = null;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        json = null;
      }
      if (res.ok) return json as T;
      const err = (json as { error?: ApiError } | null)?.error;
      // A refusal before any route (the proxy's 401 for a refused token) is one line of plain text.
      const plain = json === null && /^text\/plain/i.test(res.headers.get("content-type") ?? "") ? text.split("\n")[0].trim().slice(0, 300) : "";
      const error: ApiError =
        err && typeof err.message === "string" ? err : { code: `http_${res.status}`, message: plain || `${res.status} ${res.statusText}`.trim() };
      if (res.status === 401) throw new CliError(`${server} refused the token (BENCHWORK_TOKEN): ${oneLine(error.message)}`, 2);
      if (res.status === 403) throw new CliError(`${server} refused: ${oneLine(error.message)}`, 2);
      throw new RemoteError(res.status, error);
    },
  };
}

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

/**
 * The usual wording of a RemoteError: 400/404 are usage errors (exit 2), the rest exit 1.
 * Anything else is returned unchanged.
 */
export function remoteRefusal(e: unknown): unknown {
  if (!(e instanceof RemoteError)) return e;
  return new CliError(oneLine(e.error.message), e.status === 400 || e.status === 404 ? 2 : 1);
}
