/**
 * Test helper: the `/api/v1` route handlers behind a plain node http server on a free 127.0.0.1
 * port, so CLI tests talk real HTTP to them without building the Next.js app. The handlers use the
 * database `useApiDatabase` installs as the server's shared connection.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { AddressInfo } from "node:net";
import type { Db } from "@/db/client";
import * as benches from "@/app/api/v1/benches/route";
import * as progress from "@/app/api/v1/benches/[benchId]/progress/route";
import * as cancel from "@/app/api/v1/benches/[benchId]/cancel/route";
import * as results from "@/app/api/v1/benches/[benchId]/results/route";
import * as publish from "@/app/api/v1/publish/route";
import * as datasetImport from "@/app/api/v1/datasets/import/route";
import * as openapi from "@/app/api/v1/openapi.json/route";

type Handler = (request: Request, route: { params: Promise<Record<string, string>> }) => Response | Promise<Response>;

/** Method, path pattern (`:benchId`) and handler of every route. */
export const V1_ROUTES: [string, string, Handler][] = [
  ["POST", "/api/v1/benches", benches.POST as Handler],
  ["GET", "/api/v1/benches/:benchId/progress", progress.GET as Handler],
  ["POST", "/api/v1/benches/:benchId/cancel", cancel.POST as Handler],
  ["GET", "/api/v1/benches/:benchId/results", results.GET as Handler],
  ["POST", "/api/v1/publish", publish.POST as Handler],
  ["POST", "/api/v1/datasets/import", datasetImport.POST as Handler],
  ["GET", "/api/v1/openapi.json", openapi.GET as Handler],
];

/** Makes `db` the connection `getDb()` returns (the route handlers' database). */
export function useApiDatabase(db: Db): void {
  (globalThis as unknown as { benchworkDb?: Db }).benchworkDb = db;
}

/** The route for `method` and `pathname`, with its params, or null. */
export function matchRoute(method: string, pathname: string): { handler: Handler; params: Record<string, string> } | null {
  for (const [m, pattern, handler] of V1_ROUTES) {
    if (m !== method) continue;
    const names: string[] = [];
    const re = new RegExp(`^${pattern.replace(/:(\w+)/g, (_, n: string) => (names.push(n), "([^/]+)"))}$`);
    const hit = re.exec(pathname);
    if (hit) return { handler, params: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(hit[i + 1])])) };
  }
  return null;
}

async function serve(req: IncomingMessage, res: ServerResponse, base: string) {
  const url = new URL(req.url ?? "/", base);
  const route = matchRoute(req.method ?? "GET", url.pathname);
  if (!route) {
    res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { code: "not_found", message: "no such route" } }));
    return;
  }
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const request = new Request(url, {
    method: req.method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: "half" } : {}),
  } as RequestInit);
  const response = await route.handler(request, { params: Promise.resolve(route.params) });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

/**
 * Starts the server on a free port of 127.0.0.1.
 * @returns its base URL and a stop function
 */
export async function startV1Server(): Promise<{ url: string; stop: () => Promise<void> }> {
  let base = "";
  const server: Server = createServer((req, res) => {
    serve(req, res, base).catch((e: Error) => res.writeHead(500).end(e.message));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: base, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
