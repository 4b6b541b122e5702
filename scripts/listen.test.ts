import { describe, expect, it } from "vitest";
import { nextServerCommand } from "./listen.mjs";

describe("nextServerCommand (npm start / npm run dev)", () => {
  it("listens on 127.0.0.1 only when BENCHWORK_HOST is unset or blank", () => {
    expect(nextServerCommand({ dev: false, env: {} })).toEqual({ args: ["start", "--hostname", "127.0.0.1", "--port", "3000"], warning: null });
    expect(nextServerCommand({ dev: true, env: { BENCHWORK_HOST: "  ", PORT: "4321" } })).toEqual({
      args: ["dev", "--hostname", "127.0.0.1", "--port", "4321"],
      warning: null,
    });
  });

  it("listens on BENCHWORK_HOST when set, and warns that there is no sign-in", () => {
    const { args, warning } = nextServerCommand({ dev: false, env: { BENCHWORK_HOST: "0.0.0.0", PORT: "8080" } });
    expect(args).toEqual(["start", "--hostname", "0.0.0.0", "--port", "8080"]);
    expect(warning).toContain("BENCHWORK_HOST=0.0.0.0");
    expect(warning).toContain("no sign-in");
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
});
