import { describe, expect, it } from "vitest";
import { exposureRefusal, nextServerCommand } from "./listen.mjs";

describe("nextServerCommand (npm start / npm run dev)", () => {
  it("listens on 127.0.0.1 only when BENCHWORK_HOST is unset or blank", () => {
    expect(nextServerCommand({ dev: false, env: {} })).toEqual({ args: ["start", "--hostname", "127.0.0.1", "--port", "3000"], warning: null });
    expect(nextServerCommand({ dev: true, env: { BENCHWORK_HOST: "  ", PORT: "4321" } })).toEqual({
      args: ["dev", "--hostname", "127.0.0.1", "--port", "4321"],
      warning: null,
    });
  });

  it("listens on BENCHWORK_HOST when set, and says that sign-in is required and which hosts to allow", () => {
    const { args, warning } = nextServerCommand({ dev: false, env: { BENCHWORK_HOST: "0.0.0.0", PORT: "8080" } });
    expect(args).toEqual(["start", "--hostname", "0.0.0.0", "--port", "8080"]);
    expect(warning).toContain("BENCHWORK_HOST=0.0.0.0");
    expect(warning).toContain("every page, action and route requires sign-in");
    expect(warning).toContain("BENCHWORK_ALLOWED_HOSTS");
  });

  it("does not warn for another loopback address", () => {
    expect(nextServerCommand({ dev: false, env: { BENCHWORK_HOST: "::1" } })).toEqual({
      args: ["start", "--hostname", "::1", "--port", "3000"],
      warning: null,
    });
    expect(nextServerCommand({ dev: false, env: { BENCHWORK_HOST: "localhost" } }).warning).toBeNull();
  });

  it("refuses a PORT that is not a port number, naming it", () => {
    expect(() => nextServerCommand({ dev: false, env: { PORT: "80a" } })).toThrow('PORT="80a" is not a port number (1–65535).');
    expect(() => nextServerCommand({ dev: false, env: { PORT: "70000" } })).toThrow(/PORT="70000"/);
  });

  describe("exposureRefusal (issue 19: no open server beyond loopback)", () => {
    const secret = "x".repeat(32);
    it("refuses a non-loopback BENCHWORK_HOST without BENCHWORK_AUTH_SECRET, in one line", () => {
      const r = exposureRefusal({ env: { BENCHWORK_HOST: "0.0.0.0" }, userCount: 3 });
      expect(r).toBe(
        "refusing to listen on 0.0.0.0 without authentication: set BENCHWORK_AUTH_SECRET (32+ characters, e.g. `openssl rand -hex 32`) and add a user with `npx benchwork user add --admin EMAIL`, or unset BENCHWORK_HOST to stay on 127.0.0.1.",
      );
      expect(r).not.toContain("\n");
    });
    it("refuses a short secret and a server without users", () => {
      expect(exposureRefusal({ env: { BENCHWORK_HOST: "10.0.0.5", BENCHWORK_AUTH_SECRET: "short" }, userCount: 1 })).toContain("BENCHWORK_AUTH_SECRET");
      expect(exposureRefusal({ env: { BENCHWORK_HOST: "10.0.0.5", BENCHWORK_AUTH_SECRET: secret }, userCount: 0 })).toContain("no user yet");
    });
    it("counts a reverse proxy in front (BENCHWORK_ALLOWED_HOSTS, or a BENCHWORK_URL that is not loopback) as exposed too", () => {
      // Attacked for real: on 127.0.0.1 behind a proxy for bench.example.com with no user, every visitor was admin.
      expect(exposureRefusal({ env: { BENCHWORK_ALLOWED_HOSTS: "bench.example.com" }, userCount: 0 })).toBe(
        "refusing to answer to bench.example.com (BENCHWORK_ALLOWED_HOSTS) without authentication: set BENCHWORK_AUTH_SECRET (32+ characters, e.g. `openssl rand -hex 32`) and add a user with `npx benchwork user add --admin EMAIL`, or unset BENCHWORK_ALLOWED_HOSTS to stay on 127.0.0.1.",
      );
      expect(exposureRefusal({ env: { BENCHWORK_URL: "https://bench.example.com", BENCHWORK_AUTH_SECRET: secret }, userCount: 0 })).toBe(
        "refusing to serve https://bench.example.com (BENCHWORK_URL) with no user yet: add one with `npx benchwork user add --admin EMAIL` (same BENCHWORK_DB), or unset BENCHWORK_URL to stay on 127.0.0.1.",
      );
      expect(exposureRefusal({ env: { BENCHWORK_ALLOWED_HOSTS: "bench.example.com", BENCHWORK_AUTH_SECRET: secret }, userCount: 1 })).toBeNull();
      expect(exposureRefusal({ env: { BENCHWORK_URL: "http://localhost:3000", BENCHWORK_ALLOWED_HOSTS: " " }, userCount: 0 })).toBeNull();
    });
    it("lets a configured server listen anywhere, and loopback always", () => {
      expect(exposureRefusal({ env: { BENCHWORK_HOST: "0.0.0.0", BENCHWORK_AUTH_SECRET: secret }, userCount: 1 })).toBeNull();
      expect(exposureRefusal({ env: {}, userCount: 0 })).toBeNull();
      expect(exposureRefusal({ env: { BENCHWORK_HOST: "localhost" }, userCount: 0 })).toBeNull();
    });
  });
});
