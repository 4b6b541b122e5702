/**
 * Issue 20: while PostgreSQL is down, every page was a bare "Internal Server Error": the proxy's
 * session lookup threw before any page or error boundary ran. Now a page load gets a 503 page that
 * says the database cannot be reached, and an API call a one-line 503; neither names the store's
 * URL or password.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer } from "node:net";
import { NextRequest } from "next/server";

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

  it("answers a page load with a 503 page that says the database cannot be reached, without URL or password", async () => {
    const response = await proxy(new NextRequest("http://127.0.0.1:3000/systems/gsm/benches/7", { headers: { host: "127.0.0.1:3000", accept: "text/html" } }));
    expect(response.status).toBe(503);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    // Nothing of the page goes on to be rendered: no pass-through.
    expect(response.headers.get("x-middleware-next")).toBeNull();
    const html = await response.text();
    expect(html).toContain('<h1 style="margin:0;font-size:18px">The database cannot be reached</h1>');
    expect(html).toContain(">Try again</a>");
    expect(html).not.toContain("s3cret-pw");
    expect(html).not.toContain("ECONNREFUSED");
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
