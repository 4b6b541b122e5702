import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { nodeFetch } from "./http-fetch";
import { closedPort } from "@/e2e/fixtures/closed-port";

let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      if (req.url === "/slow") return setTimeout(() => res.end("late"), 2000);
      if (req.url === "/empty") return res.writeHead(204).end();
      res.writeHead(req.url === "/missing" ? 404 : 200, { "content-type": "application/json", "x-echo": String(req.headers["x-test"] ?? "") });
      res.end(JSON.stringify({ method: req.method, body, auth: req.headers.authorization ?? null }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

describe("nodeFetch", () => {
  it("sends method, headers and body and returns a standard Response", async () => {
    const r = await nodeFetch(`${base}/x`, { method: "POST", headers: { "x-test": "1", authorization: "Bearer k" }, body: JSON.stringify({ a: 1 }) });
    expect(r.status).toBe(200);
    expect(r.headers.get("x-echo")).toBe("1");
    expect(await r.json()).toEqual({ method: "POST", body: '{"a":1}', auth: "Bearer k" });
    const h = await nodeFetch(`${base}/x`, { headers: new Headers([["x-test", "2"]]) });
    expect(h.headers.get("x-echo")).toBe("2");
  });
  it("passes error statuses and empty bodies through", async () => {
    expect((await nodeFetch(`${base}/missing`)).status).toBe(404);
    const e = await nodeFetch(`${base}/empty`);
    expect(e.status).toBe(204);
    expect(await e.text()).toBe("");
  });
  it("aborts with an AbortError", async () => {
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 50);
    await expect(nodeFetch(`${base}/slow`, { signal: ctl.signal })).rejects.toMatchObject({ name: "AbortError" });
  });
  it("rejects a refused connection", async () => {
    await expect(nodeFetch(`http://127.0.0.1:${await closedPort()}/`)).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });
  it("never follows a redirect, so key headers never reach the redirect's host (security review item 2)", async () => {
    let reached = 0;
    const other = http.createServer((_req, res) => (reached++, res.end("{}")));
    await new Promise<void>((r) => other.listen(0, "127.0.0.1", r));
    const redirect = http.createServer((_req, res) =>
      res.writeHead(307, { location: `http://127.0.0.1:${(other.address() as AddressInfo).port}/steal` }).end(),
    );
    await new Promise<void>((r) => redirect.listen(0, "127.0.0.1", r));
    try {
      const r = await nodeFetch(`http://127.0.0.1:${(redirect.address() as AddressInfo).port}/v1/chat/completions`, {
        method: "POST",
        headers: { "x-api-key": "sk-ant-secret" },
        body: "{}",
      });
      expect(r.status).toBe(307);
      expect(r.headers.get("location")).toMatch(/\/steal$/);
      expect(reached).toBe(0);
    } finally {
      other.close();
      redirect.close();
    }
  });
});

describe("nodeFetch responses (BufferedResponse)", () => {
  it("reads the body once, as the fetch standard says", async () => {
    const r = await nodeFetch(`${base}/x`, { method: "POST", body: "hi" });
    expect(r.ok).toBe(true);
    expect(r.bodyUsed).toBe(false);
    const copy = r.clone();
    expect(JSON.parse(await r.text())).toMatchObject({ method: "POST", body: "hi" });
    expect(r.bodyUsed).toBe(true);
    await expect(r.text()).rejects.toThrow(TypeError);
    expect(() => r.clone()).toThrow(TypeError);
    expect(await copy.json()).toMatchObject({ body: "hi" });
  });
  it("streams the body through a reader (the ai SDK's way) and blocks a second read", async () => {
    const r = await nodeFetch(`${base}/x`, { method: "POST", body: "stream me" });
    const reader = r.body!.getReader();
    const parts: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
    }
    expect(JSON.parse(Buffer.concat(parts).toString("utf8"))).toMatchObject({ body: "stream me" });
    expect(r.bodyUsed).toBe(true);
    await expect(r.arrayBuffer()).rejects.toThrow(TypeError);
  });
  it("has case-insensitive, read-only headers iterated in name order", async () => {
    const r = await nodeFetch(`${base}/x`, { headers: { "x-test": "7" } });
    expect(r.headers.get("X-Echo")).toBe("7");
    expect(r.headers.has("CONTENT-TYPE")).toBe(true);
    const names = [...r.headers].map(([k]) => k);
    expect(names).toEqual([...names].sort());
    expect(Object.fromEntries(r.headers)["content-type"]).toBe("application/json");
    expect(() => r.headers.set("x", "y")).toThrow(TypeError);
    expect(r.status).toBe(200);
    expect(r.url).toBe(`${base}/x`);
  });
  it("has a null body on 204", async () => {
    const r = await nodeFetch(`${base}/empty`);
    expect(r.body).toBeNull();
    expect(await r.text()).toBe("");
  });
});
