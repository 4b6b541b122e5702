import { describe, expect, it } from "vitest";
import { HostListError, hostPolicy, parseHostHeader } from "./hosts";

describe("parseHostHeader", () => {
  it("splits name and port, lower-cases, drops a trailing dot, keeps IPv6 in brackets", () => {
    expect(parseHostHeader("LocalHost:3000")).toEqual({ name: "localhost", port: "3000" });
    expect(parseHostHeader("localhost.")).toEqual({ name: "localhost", port: null });
    expect(parseHostHeader("[::1]:8080")).toEqual({ name: "[::1]", port: "8080" });
    expect(parseHostHeader("127.0.0.1")).toEqual({ name: "127.0.0.1", port: null });
  });

  it("refuses what is not a host: user info, paths, spaces, bad ports, empty", () => {
    for (const bad of ["", "user@localhost", "localhost/x", "local host", "localhost:", "localhost:99999", "localhost:3000:1", "::1", "[::1"]) {
      expect(parseHostHeader(bad), bad).toBeNull();
    }
  });
});

describe("hostPolicy", () => {
  it("answers to the loopback names only by default, and trusts no other origin", () => {
    const p = hostPolicy({});
    expect([...p.hosts].sort()).toEqual(["127.0.0.1", "[::1]", "localhost"]);
    expect([...p.trustedOriginNames]).toEqual([]);
  });

  it("adds BENCHWORK_ALLOWED_HOSTS (comma-separated, spaces and case ignored, bare IPv6 bracketed) to hosts and trusted origins", () => {
    const p = hostPolicy({ allowedHosts: " Bench.Example.com , 10.0.0.5,::1,fe80::2 ," });
    expect(p.hosts).toEqual(new Set(["localhost", "127.0.0.1", "[::1]", "bench.example.com", "10.0.0.5", "[fe80::2]"]));
    expect(p.trustedOriginNames).toEqual(new Set(["bench.example.com", "10.0.0.5", "[::1]", "[fe80::2]"]));
  });

  it("answers to BENCHWORK_HOST too (the address it listens on), without trusting it as another origin", () => {
    const p = hostPolicy({ listenHost: "Workstation.lan" });
    expect(p.hosts.has("workstation.lan")).toBe(true);
    expect(p.trustedOriginNames.has("workstation.lan")).toBe(false);
    expect(hostPolicy({ listenHost: "::" }).hosts.has("[::]")).toBe(true);
  });

  it("names the variable and the entry that is not a host name", () => {
    expect(() => hostPolicy({ allowedHosts: "bench.example.com,https://x.example/" })).toThrow(HostListError);
    expect(() => hostPolicy({ allowedHosts: "bench.example.com,https://x.example/" })).toThrow(
      'BENCHWORK_ALLOWED_HOSTS: entry 2 "https://x.example/" is not a host name or IP address (write names without scheme, port or path, separated by commas; any port is accepted).',
    );
    expect(() => hostPolicy({ allowedHosts: "bench.example.com:8443" })).toThrow(/entry 1 "bench.example.com:8443"/);
    expect(() => hostPolicy({ listenHost: "my host" })).toThrow('BENCHWORK_HOST: "my host" is not a host name or IP address.');
  });
});
