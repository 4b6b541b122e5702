/**
 * The CLI's HTTP client (issue 19) against a plain HTTP server on a free port: a refusal that is
 * not JSON (the team server's proxy answers a refused token in plain text before any route runs)
 * still ends in one line that says why.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "./remote";
import { CliError } from "./io";

let server: http.Server;
let url = "";

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    res.writeHead(401, { "content-type": "text/plain; charset=utf-8" });
    res.end("The API token was refused: it is unknown, revoked or expired.\nsecond line\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("connect().call", () => {
  it("words a plain-text 401 with its first line, exit 2, and never echoes the token", async () => {
    const token = `bw_${"x".repeat(43)}`;
    const e = await connect(url, token)
      .call("GET", "/api/v1/benches/1/progress")
      .catch((err: unknown) => err);
    expect(e).toBeInstanceOf(CliError);
    expect((e as CliError).exitCode).toBe(2);
    expect((e as CliError).message).toBe(`${url} refused the token (BENCHWORK_TOKEN): The API token was refused: it is unknown, revoked or expired.`);
    expect((e as CliError).message).not.toContain(token);
  });
});
