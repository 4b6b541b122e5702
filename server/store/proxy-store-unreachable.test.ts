/**
 * Issue 20: while PostgreSQL is down, every page was a bare "Internal Server Error": the proxy's
 * session lookup threw before any page or error boundary ran. Now a page load goes on flagged (the
 * root layout renders "The database cannot be reached" instead of the page) and an API call gets a
 * one-line 503; neither names the store's URL or password. Only the proxy sets the flag.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer } from "node:net";
import { NextRequest } from "next/server";
import { STORE_UNREACHABLE_HEADER } from "@/lib/store/unreachable";

/** A loopback port nothing listens on (bound to 0, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("proxy with a PostgreSQL store that cannot be reached", () => {
  const saved = process.env.BENCHWORK_DATABASE_URL;
  let proxy: typeof import("@/proxy").proxy;
  let text: string;
  beforeAll(async () => {
    process.env.BENCHWORK_DATABASE_URL = `postgres://bw:s3cret-pw@127.0.0.1:${await closedPort()}/benchwork`;
    delete (globalThis as { benchworkDb?: unknown }).benchworkDb;
    ({ proxy, STORE_UNREACHABLE_TEXT: text } = await import("@/proxy"));
  });
  afterAll(async () => {
    const db = (globalThis as { benchworkDb?: { $client: { end: () => Promise<void> } } }).benchworkDb;
    await db?.$client.end();
    delete (globalThis as { benchworkDb?: unknown }).benchworkDb;
    if (saved === undefined) delete process.env.BENCHWORK_DATABASE_URL;
    else process.env.BENCHWORK_DATABASE_URL = saved;
  });

  it("passes a page load on flagged, so that the layout says the store cannot be reached instead of the page", async () => {
    const response = await proxy(new NextRequest("http://127.0.0.1:3000/systems/gsm/benches/7", { headers: { host: "127.0.0.1:3000", accept: "text/html" } }));
    expect(response.headers.get("x-middleware-next")).toBe("1");
    expect(response.headers.get(`x-middleware-request-${STORE_UNREACHABLE_HEADER}`)).toBe("1");
    expect(response.headers.get("x-middleware-request-content-security-policy")).toContain("nonce-");
  });

  it("drops a flag the request brings itself (a public page, no store lookup)", async () => {
    const response = await proxy(
      new NextRequest("http://127.0.0.1:3000/sign-in", { headers: { host: "127.0.0.1:3000", accept: "text/html", [STORE_UNREACHABLE_HEADER]: "1" } }),
    );
    expect(response.headers.get("x-middleware-next")).toBe("1");
    expect(response.headers.get(`x-middleware-request-${STORE_UNREACHABLE_HEADER}`)).toBeNull();
  });

  it("answers an API call with a 503 that names neither the URL nor the password", async () => {
    const response = await proxy(new NextRequest("http://127.0.0.1:3000/api/v1/systems", { headers: { host: "127.0.0.1:3000", accept: "application/json" } }));
    expect(response.status).toBe(503);
    const body = await response.text();
    expect(body.trim()).toBe(text);
    expect(body).not.toContain("s3cret-pw");
    expect(body).not.toContain("127.0.0.1");
  });
});
