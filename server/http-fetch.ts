/**
 * A `fetch` for model calls made by the bench worker: node:http(s) with keep-alive agents and a
 * buffered response. The ai SDK's generateText needs no streaming, and Node's built-in fetch
 * (undici with web streams) costs the worker ~60 % more CPU per trial, 74–84 % more wall time on
 * 20,000 trials at 50 ms latency (bench/ai-patch.ts, issue #20; README "Layout"). Same contract
 * as `fetch` for what the ai SDK uses: method, headers, string/bytes body, AbortSignal; returns a
 * {@link BufferedResponse} (the standard `Response` interface over the bytes already read).
 *
 * Redirects are never followed (node:http does not, and nothing here does): a 3xx comes back as it
 * is, so the key headers of a model call never reach another host (security review item 2).
 */
import http from "node:http";
import https from "node:https";
import { BufferedHeaders, BufferedResponse } from "./buffered-response";

const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 512, maxFreeSockets: 256 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 512, maxFreeSockets: 256 }),
};

function headerRecord(h: HeadersInit | undefined): Record<string, string> {
  if (!h) return {};
  if (h instanceof Headers) return Object.fromEntries(h.entries());
  if (Array.isArray(h)) return Object.fromEntries(h);
  return { ...(h as Record<string, string>) };
}

function bodyOf(b: BodyInit | null | undefined): string | Uint8Array | undefined {
  if (b == null) return undefined;
  if (typeof b === "string" || b instanceof Uint8Array) return b;
  if (b instanceof ArrayBuffer) return new Uint8Array(b);
  if (b instanceof URLSearchParams) return b.toString();
  throw new TypeError("nodeFetch: unsupported request body type (use a string or bytes)");
}

/** `fetch` over node:http with keep-alive; see module doc. */
export const nodeFetch: typeof fetch = (input, init = {}) =>
  new Promise<Response>((resolve, reject) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    const agent = agents[url.protocol as "http:" | "https:"];
    if (!agent) return reject(new TypeError(`nodeFetch: unsupported protocol ${url.protocol}`));
    const body = bodyOf(init.body);
    const headers = headerRecord(init.headers);
    if (body !== undefined && !Object.keys(headers).some((k) => k.toLowerCase() === "content-length"))
      headers["content-length"] = String(Buffer.byteLength(body));
    const req = (url.protocol === "https:" ? https : http).request(
      url,
      { method: init.method ?? "GET", headers, agent, signal: init.signal ?? undefined },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          const status = res.statusCode ?? 502;
          const bytes = status === 204 || status === 304 ? null : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
          resolve(new BufferedResponse(bytes, status, res.statusMessage ?? "", new BufferedHeaders(res.headers), url.href));
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
