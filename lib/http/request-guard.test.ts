import { describe, expect, it } from "vitest";
import { hostPolicy } from "./hosts";
import { guardRequest, type GuardedRequest } from "./request-guard";

const local = hostPolicy({});
const req = (o: Partial<GuardedRequest>): GuardedRequest => ({ method: "GET", host: "127.0.0.1:3000", origin: null, secFetchSite: null, ...o });

describe("guardRequest: the Host (DNS rebinding)", () => {
  it("lets the loopback names through on any port", () => {
    for (const host of ["localhost:3000", "127.0.0.1:3000", "[::1]:3000", "localhost", "LOCALHOST.:80"]) {
      expect(guardRequest(req({ host }), local), host).toEqual({ ok: true });
    }
  });

  it("refuses any other name with 421 and says how to allow it, for reads and writes alike", () => {
    const v = guardRequest(req({ host: "evil.example:3000" }), local);
    expect(v).toEqual({
      ok: false,
      status: 421,
      reason:
        'Benchwork does not answer to the host "evil.example" (a page of another site may be trying to reach it through DNS rebinding). Open Benchwork at http://localhost or http://127.0.0.1 with its port, or add the name to BENCHWORK_ALLOWED_HOSTS.',
    });
    // A rebound page's write carries an Origin that matches its Host: the Host decides first.
    expect(guardRequest(req({ method: "POST", host: "evil.example:3000", origin: "http://evil.example:3000" }), local)).toMatchObject({
      ok: false,
      status: 421,
    });
    expect(guardRequest(req({ host: "192.168.1.20:3000" }), local)).toMatchObject({ ok: false, status: 421 });
    expect(guardRequest(req({ host: "localhost.evil.example" }), local)).toMatchObject({ ok: false, status: 421 });
  });

  it("refuses a request without a usable Host with 400", () => {
    expect(guardRequest(req({ host: null }), local)).toEqual({ ok: false, status: 400, reason: "The request has no valid Host header." });
    expect(guardRequest(req({ host: "a b" }), local)).toMatchObject({ ok: false, status: 400 });
  });

  it("answers to names listed in BENCHWORK_ALLOWED_HOSTS and to BENCHWORK_HOST", () => {
    const p = hostPolicy({ allowedHosts: "bench.example.com", listenHost: "workstation.lan" });
    expect(guardRequest(req({ host: "bench.example.com" }), p)).toEqual({ ok: true });
    expect(guardRequest(req({ host: "workstation.lan:3000" }), p)).toEqual({ ok: true });
    expect(guardRequest(req({ host: "other.example.com" }), p)).toMatchObject({ ok: false, status: 421 });
  });
});

describe("guardRequest: the Origin of a state-changing request (CSRF)", () => {
  const post = (o: Partial<GuardedRequest>) => req({ method: "POST", ...o });

  it("accepts a write whose Origin is this server", () => {
    expect(guardRequest(post({ origin: "http://127.0.0.1:3000", secFetchSite: "same-origin" }), local)).toEqual({ ok: true });
    expect(guardRequest(post({ host: "localhost", origin: "http://localhost" }), local)).toEqual({ ok: true });
    expect(guardRequest(post({ host: "localhost:80", origin: "http://localhost" }), local)).toEqual({ ok: true });
  });

  it("refuses a write from another site with 403 naming the origin, for every state-changing method", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      expect(guardRequest(post({ method, origin: "http://evil.example" }), local), method).toEqual({
        ok: false,
        status: 403,
        reason:
          'Cross-site request refused: Origin "http://evil.example" is not this server (Host "127.0.0.1:3000"). Benchwork accepts changes only from its own pages.',
      });
    }
  });

  it("refuses another port or scheme of the same name, and the opaque origin null", () => {
    expect(guardRequest(post({ origin: "http://127.0.0.1:5173" }), local)).toMatchObject({ ok: false, status: 403 });
    expect(guardRequest(post({ origin: "http://localhost:3000" }), local)).toMatchObject({ ok: false, status: 403 });
    expect(guardRequest(post({ host: "localhost", origin: "https://localhost:80" }), local)).toMatchObject({ ok: false, status: 403 });
    expect(guardRequest(post({ origin: "null" }), local)).toMatchObject({ ok: false, status: 403 });
    expect(guardRequest(post({ origin: "file://" }), local)).toMatchObject({ ok: false, status: 403 });
  });

  it("refuses a write without Origin that the browser marks as coming from another site", () => {
    expect(guardRequest(post({ secFetchSite: "cross-site" }), local)).toEqual({
      ok: false,
      status: 403,
      reason:
        'Cross-site request refused: the browser marked it Sec-Fetch-Site "cross-site" and sent no Origin. Benchwork accepts changes only from its own pages.',
    });
    expect(guardRequest(post({ secFetchSite: "same-site" }), local)).toMatchObject({ ok: false, status: 403 });
  });

  it("lets a write without Origin through when no browser marked it cross-site (curl, scripts)", () => {
    expect(guardRequest(post({}), local)).toEqual({ ok: true });
    expect(guardRequest(post({ secFetchSite: "same-origin" }), local)).toEqual({ ok: true });
    expect(guardRequest(post({ secFetchSite: "none" }), local)).toEqual({ ok: true });
  });

  it("leaves reads alone whatever their Origin", () => {
    for (const method of ["GET", "HEAD", "OPTIONS"]) {
      expect(guardRequest(req({ method, origin: "http://evil.example", secFetchSite: "cross-site" }), local), method).toEqual({ ok: true });
    }
  });

  it("trusts origins named in BENCHWORK_ALLOWED_HOSTS (a reverse proxy in front), on any port and scheme", () => {
    const p = hostPolicy({ allowedHosts: "bench.example.com" });
    expect(guardRequest(post({ host: "127.0.0.1:3000", origin: "https://bench.example.com" }), p)).toEqual({ ok: true });
    expect(guardRequest(post({ host: "127.0.0.1:3000", origin: "https://bench.example.com:8443" }), p)).toEqual({ ok: true });
    expect(guardRequest(post({ host: "127.0.0.1:3000", origin: "https://evil.example.com" }), p)).toMatchObject({ ok: false, status: 403 });
    // The loopback names are hosts, not trusted origins: another local app (another port) stays out.
    expect(guardRequest(post({ host: "127.0.0.1:3000", origin: "http://localhost:5173" }), p)).toMatchObject({ ok: false, status: 403 });
  });
});
