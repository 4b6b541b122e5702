/**
 * `bench run`, `publish` and `dataset import` with `--server URL` and BENCHWORK_TOKEN (issue 19):
 * against the `/api/v1` route handlers behind a real HTTP server on a free port, they print what
 * the same command prints on a database file with the same content, and a refused token ends
 * with exit 2 and one line.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { migrateDatabase, openDatabase, type Db } from "@/db/client";
import { benches, datasetVersions } from "@/db/schema";
import { createSystem } from "@/db/queries/systems";
import { recordedSuite } from "@/server/bench/test-support/recorded-bench";
import { startBenchWorker } from "@/server/worker";
import { startV1Server, useApiDatabase } from "@/server/api/test-support/v1-server";
import { issueTestToken } from "@/server/api/test-support/api-token";
import { revokeOwnApiToken } from "@/server/auth/api-tokens";
import { main } from "../main";
import { captureIo, tempFiles } from "../testing";

let TOKEN = "";
const dir = mkdtempSync(path.join(tmpdir(), "bw-remote-cli-"));
const localFile = path.join(dir, "local.db");
let serverDb: Db;
let server: { url: string; stop: () => Promise<void> };
let worker: ReturnType<typeof startBenchWorker>;
const env: Record<string, string | undefined> = {};

/** The same library in both databases: system `rec` (prompt `answerer`, recorded columns a, b) and system `support`. */
async function fill(db: Db) {
  await recordedSuite(db, [
    { key: "q1", expected: "4", answers: { a: "4", b: "4" } },
    { key: "q2", expected: "9", answers: { a: "8", b: "9" } },
    { key: "q3", expected: "2", answers: { a: "2", b: "3" } },
  ]);
  await createSystem(db, { id: "support", name: "Customer support" });
}

beforeAll(async () => {
  for (const k of ["BENCHWORK_DB", "BENCHWORK_TOKEN"]) env[k] = process.env[k];
  const local = openDatabase(localFile);
  migrateDatabase(local);
  await fill(local);
  local.$client.close();
  serverDb = openDatabase(path.join(dir, "server.db"));
  migrateDatabase(serverDb);
  await fill(serverDb);
  useApiDatabase(serverDb);
  TOKEN = (await issueTestToken(serverDb, { email: "ci@example.test", role: "editor", scope: "run" })).token;
  // The server's worker (the Next.js server runs one in-process).
  worker = startBenchWorker(serverDb, { pollMs: 20 });
  server = await startV1Server();
  process.env.BENCHWORK_DB = localFile;
  process.env.BENCHWORK_TOKEN = TOKEN;
});
afterAll(async () => {
  await server.stop();
  await worker.stop(2_000);
  serverDb.$client.close();
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

async function cli(args: string[]) {
  const io = captureIo();
  const code = await main(args, io);
  return { code, out: io.stdout, err: io.stderr };
}

describe("bench run --server", () => {
  it("prints, writes and exits as the same bench run on a database file; the bench is the token's user's", async () => {
    const args = ["bench", "run", "--system", "rec", "--prompt", "answerer", "--candidate", "recorded:a", "--candidate", "recorded:b"];
    const localJson = path.join(dir, "local.json");
    const remoteJson = path.join(dir, "remote.json");
    const localMd = path.join(dir, "local.md");
    const remoteMd = path.join(dir, "remote.md");
    const local = await cli([...args, "--json-output", localJson, "--markdown", localMd]);
    const remote = await cli([...args, "--json-output", remoteJson, "--markdown", remoteMd, "--server", server.url]);
    expect(remote.err).toEqual(local.err);
    expect(remote.code).toBe(local.code);
    expect(remote.out).toEqual(local.out);
    expect(remote.out[0]).toMatch(/^bench #1: 3 cases included/);
    expect(JSON.parse(readFileSync(remoteJson, "utf8"))).toEqual(JSON.parse(readFileSync(localJson, "utf8")));
    expect(readFileSync(remoteMd, "utf8")).toBe(readFileSync(localMd, "utf8"));
    expect(serverDb.select().from(benches).where(eq(benches.id, 1)).get()?.launchedByEmail).toBe("ci@example.test");
  }, 60_000);

  it("a refused token: exit 2, one line on stderr, no bench", async () => {
    process.env.BENCHWORK_TOKEN = "revoked-token";
    try {
      const before = serverDb.select().from(benches).all().length;
      const r = await cli(["bench", "run", "--system", "rec", "--prompt", "answerer", "--candidate", "recorded:a", "--server", server.url]);
      expect(r.code).toBe(2);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toMatch(new RegExp(`^benchwork: ${server.url} refused the token \\(BENCHWORK_TOKEN\\): `));
      expect(r.out).toEqual([]);
      expect(serverDb.select().from(benches).all().length).toBe(before);
    } finally {
      process.env.BENCHWORK_TOKEN = TOKEN;
    }
  });

  it("a token that worked and was then revoked: the next call exits 2 with one line, and launches nothing", async () => {
    const t = await issueTestToken(serverDb, { email: "revoked@example.test", role: "editor", scope: "run" });
    process.env.BENCHWORK_TOKEN = t.token;
    try {
      const args = ["bench", "run", "--system", "rec", "--prompt", "answerer", "--candidate", "recorded:a", "--server", server.url];
      expect((await cli(args)).code).toBe(0);
      await revokeOwnApiToken(serverDb, t.userId, t.tokenId, Date.now());
      const before = serverDb.select().from(benches).all().length;
      const r = await cli(args);
      expect(r.code).toBe(2);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toMatch(new RegExp(`^benchwork: ${server.url} refused the token \\(BENCHWORK_TOKEN\\): `));
      expect(serverDb.select().from(benches).all().length).toBe(before);
    } finally {
      process.env.BENCHWORK_TOKEN = TOKEN;
    }
  }, 60_000);

  it("bad options are usage errors (exit 2) worded as on a database file", async () => {
    const r = await cli(["bench", "run", "--system", "rec", "--prompt", "nope", "--candidate", "recorded:a", "--server", server.url]);
    expect(r.code).toBe(2);
    expect(r.err).toEqual(['benchwork: --prompt: system "rec" has no prompt "nope" (it has answerer)']);
    const down = await cli(["bench", "run", "--system", "rec", "--prompt", "answerer", "--candidate", "recorded:a", "--server", "ftp://x"]);
    expect([down.code, down.err]).toEqual([2, ['benchwork: --server: "ftp://x" must be an http:// or https:// URL']]);
  });
});

describe("dataset import --server", () => {
  const files = tempFiles({
    "good.csv": "question,answer\nWhere is my order?,Ask for the order number\nCan I return it?,Yes within 30 days\n",
    "blocked.csv": "question,answer\nWhere is my order?,Ask for the order number\nCan I return it?,\n",
  });

  it("saves the version on the server and prints what a local import prints", async () => {
    const args = ["dataset", "import", path.join(files, "good.csv"), "--system", "rec", "--name", "faq", "--use", "answerer"];
    const local = await cli(args);
    const remote = await cli([...args, "--server", server.url]);
    expect(local.code).toBe(0);
    expect(remote.code).toBe(0);
    // The same words, each naming where the version went (the server, or the local file).
    expect(remote.out.slice(1)).toEqual(local.out.slice(1));
    expect(remote.out[0]).toBe(`Saved dataset "faq" version 1 (dataset #1) in ${server.url}: 2 row(s).`);
    expect(local.out[0]).toBe(`Saved dataset "faq" version 1 (dataset #1) in ${localFile}: 2 row(s).`);
    expect(serverDb.select().from(datasetVersions).get()?.authorEmail).toBe("ci@example.test");
  });

  it("blocked rows: exit 1 with the problems, as locally; nothing saved", async () => {
    const args = ["dataset", "import", path.join(files, "blocked.csv"), "--system", "rec", "--name", "blocked"];
    const local = await cli(args);
    const remote = await cli([...args, "--server", server.url]);
    expect(local.code).toBe(1);
    expect(remote.code).toBe(1);
    expect(remote.err).toEqual(local.err);
    expect(serverDb.select().from(datasetVersions).all()).toHaveLength(1);
  });
});

describe("publish --server", () => {
  it("publishes the compiled example on the server with the local output", async () => {
    const example = path.resolve("examples/support-tool-use");
    const local = await cli(["publish", example, "--system", "support", "--json"]);
    const remote = await cli(["publish", example, "--system", "support", "--json", "--server", server.url]);
    expect(local.code).toBe(0);
    expect(remote.code).toBe(0);
    expect(JSON.parse(remote.out[0])).toEqual(JSON.parse(local.out[0]));
    expect(JSON.parse(remote.out[0]).created).toHaveLength(27);
    const missing = await cli(["publish", example, "--system", "nope", "--server", server.url]);
    expect(missing.code).toBe(2);
    expect(missing.err[0]).toMatch(/^benchwork: --system: System "nope" does not exist\./);
  }, 60_000);
});
