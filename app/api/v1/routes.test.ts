/**
 * The HTTP API for the CLI (issue 19), route handlers called directly with Request objects on a
 * migrated temp SQLite file: role and scope checks, cross-site writes, validation naming fields,
 * and what each route stores and answers.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { migrateDatabase, openDatabase, type Db } from "@/db/client";
import { activity, benches, datasetVersions } from "@/db/schema";
import { createSystem } from "@/db/queries/systems";
import { findCaseByKey, getCase } from "@/db/queries/cases";
import { contentHash } from "@/lib/suite/canonical";
import type { Release, ReleaseCase } from "@/lib/suite/types";
import { recordedSuite } from "@/server/bench/test-support/recorded-bench";
import { startBenchWorker } from "@/server/worker";
import { matchRoute, useApiDatabase } from "@/server/api/test-support/v1-server";
import type { Actor } from "@/server/auth/actor";
import { issueTestToken } from "@/server/api/test-support/api-token";

// The placeholder actor resolution, with a switch to act as another actor (a viewer, a read-only token).
const as = vi.hoisted(() => ({ actor: undefined as Actor | null | undefined }));
vi.mock("@/server/auth/actor", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/server/auth/actor")>();
  return { ...real, actorFromRequest: async (r: Request) => (as.actor !== undefined ? as.actor : real.actorFromRequest(r)) };
});

let TOKEN = "";
let dir: string;
let db: Db;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "bw-api-v1-"));
  db = openDatabase(path.join(dir, "api.db"));
  migrateDatabase(db);
  useApiDatabase(db);
  // A real editor with a run-scoped personal API token (hashed at rest, looked up like on a team server).
  TOKEN = (await issueTestToken(db, { email: "ci@example.test", role: "editor", scope: "run" })).token;
  await recordedSuite(db, [
    { key: "q1", expected: "4", answers: { a: "4", b: "4" } },
    { key: "q2", expected: "9", answers: { a: "8", b: "9" } },
  ]);
});
afterAll(() => {
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  as.actor = undefined;
});

// Response bodies as the tests read them (deep paths into JSON).
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test-only: deep reads into arbitrary response JSON
type Json = Record<string, any>;

/** Calls the route for `method path` as the server would. */
async function call(method: string, p: string, o: { body?: unknown; token?: string; headers?: Record<string, string> } = {}) {
  const route = matchRoute(method, p);
  if (!route) throw new Error(`no route ${method} ${p}`);
  // The editor's token unless the test names another (or none: `token: undefined`).
  const token = "token" in o ? o.token : TOKEN;
  const headers: Record<string, string> = { host: "127.0.0.1:3000", ...(token ? { authorization: `Bearer ${token}` } : {}), ...o.headers };
  if (o.body !== undefined && !headers["content-type"]) headers["content-type"] = "application/json";
  const request = new Request(`http://127.0.0.1:3000${p}`, {
    method,
    headers,
    body: o.body === undefined ? undefined : typeof o.body === "string" ? o.body : JSON.stringify(o.body),
  });
  const res = await route.handler(request, { params: Promise.resolve(route.params) });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Json };
}

const run = { system: "rec", prompt: "answerer", candidate: ["recorded:a", "recorded:b"] };

describe("who may call", () => {
  it("refuses a request without a token once a user exists (no single-user mode then)", async () => {
    const r = await call("GET", "/api/v1/benches/1/progress", { token: undefined });
    expect([r.status, r.json.error.code]).toEqual([401, "unauthenticated"]);
  });

  it("refuses a token the server does not know with 401 and a Bearer challenge; nothing is stored", async () => {
    const before = db.select().from(benches).all().length;
    const r = await call("POST", "/api/v1/benches", { body: run, token: "stolen-or-revoked" });
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toBe("Bearer");
    expect(r.json.error.code).toBe("unauthenticated");
    expect(db.select().from(benches).all().length).toBe(before);
    expect((await call("GET", "/api/v1/benches/1/progress", { token: "nope" })).status).toBe(401);
  });

  it("refuses a viewer's launch and a read-only token's launch with 403, but lets them read", async () => {
    as.actor = { userId: "v", email: "viewer@example.test", role: "viewer", kind: "session" };
    const viewer = await call("POST", "/api/v1/benches", { body: run });
    expect([viewer.status, viewer.json.error.code]).toEqual([403, "forbidden"]);
    as.actor = { userId: "e", email: "ci@example.test", role: "editor", kind: "token", scopes: ["read"] };
    const readOnly = await call("POST", "/api/v1/benches", { body: run });
    expect(readOnly.status).toBe(403);
    expect(readOnly.json.error.message).toMatch(/"run" scope/);
    expect((await call("GET", "/api/v1/benches/999/progress")).status).toBe(404);
  });

  it("refuses a cross-site write (another Origin) and a body that is not JSON (a form post)", async () => {
    const cross = await call("POST", "/api/v1/benches", { body: run, headers: { origin: "https://evil.example" } });
    expect([cross.status, cross.json.error.code]).toEqual([403, "cross_site"]);
    const form = await call("POST", "/api/v1/benches", { body: "system=rec", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(form.status).toBe(415);
    const same = await call("POST", "/api/v1/benches/999/cancel", { body: {}, headers: { origin: "http://127.0.0.1:3000" } });
    expect(same.status).toBe(404);
  });
});

describe("bench run over HTTP", () => {
  it("names the fields at fault: a missing prompt, an unknown system, a bad candidate", async () => {
    const missing = await call("POST", "/api/v1/benches", { body: { system: "rec", candidate: ["recorded:a"] } });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.json.error.fieldErrors)).toEqual(["prompt"]);
    expect(missing.json.error.message).toBe("prompt: is required");
    const wrongType = await call("POST", "/api/v1/benches", { body: { ...run, candidate: "recorded:a" } });
    expect(wrongType.json.error.fieldErrors).toEqual({ candidate: "must be a list of candidate specs" });
    const system = await call("POST", "/api/v1/benches", { body: { ...run, system: "nope" } });
    expect(system.status).toBe(400);
    expect(system.json.error.fieldErrors.system).toBe('--system: no system "nope" in this server (it has rec)');
    const cand = await call("POST", "/api/v1/benches", { body: { ...run, candidate: ["recorded:zzz"] } });
    expect(cand.json.error.fieldErrors.candidate).toMatch(/no recorded outputs named "zzz" \(it has a, b\)/);
    const extra = await call("POST", "/api/v1/benches", { body: { ...run, dbPath: "/etc/passwd" } });
    expect(extra.status).toBe(400);
    expect(extra.json.error.fieldErrors).toHaveProperty("_form");
  });

  it("launches as the token's user, reports progress, refuses results until the end, then returns what bench run prints", async () => {
    const launched = await call("POST", "/api/v1/benches", { body: { ...run, launchKey: "api-test-launch-1" }, token: TOKEN });
    expect(launched.status).toBe(201);
    const id = launched.json.benchId as number;
    expect(launched.json.plan).toMatchObject({ includedCount: 2, trialCount: 4 });
    expect(db.select().from(benches).where(eq(benches.id, id)).get()?.launchedByEmail).toBe("ci@example.test");
    // The same launch key again: the same bench, nothing new.
    const again = await call("POST", "/api/v1/benches", { body: { ...run, launchKey: "api-test-launch-1" }, token: TOKEN });
    expect([again.json.benchId, again.json.created]).toEqual([id, false]);
    expect((await call("GET", `/api/v1/benches/${id}/results`, { token: TOKEN })).status).toBe(409);
    const worker = startBenchWorker(db, { pollMs: 10 });
    try {
      for (;;) {
        const p = await call("GET", `/api/v1/benches/${id}/progress`, { token: TOKEN });
        expect(p.status).toBe(200);
        if (p.json.status !== "queued" && p.json.status !== "running") break;
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await worker.stop(2_000);
    }
    const res = await call("GET", `/api/v1/benches/${id}/results`, { token: TOKEN });
    expect(res.status).toBe(200);
    expect(res.json.result).toMatchObject({ schemaVersion: 1, benchId: id, status: "finished", manifest: { included: 2, excluded: 0 } });
    expect(res.json.result.candidates.map((c: { label: string; passed: number }) => [c.label, c.passed])).toEqual([
      ["a", 1],
      ["b", 2],
    ]);
    expect(res.json.lines.join("\n")).toContain("b: 100.0% of 2 scored checks");
    expect(res.json.markdown).toContain(`#${id}`);
    expect(res.json.gate).toMatchObject({ finished: true, allErrored: false });
    // Cancel after the end is refused; the activity has the launch by the token's user.
    expect((await call("POST", `/api/v1/benches/${id}/cancel`, { body: {}, token: TOKEN })).status).toBe(409);
    const act = db
      .select()
      .from(activity)
      .where(eq(activity.subjectId, String(id)))
      .all();
    expect(act.map((a) => [a.action, a.actorEmail])).toEqual([["bench.launch", "ci@example.test"]]);
  }, 30_000);
});

function tinyRelease(expected: string): Release {
  const c: ReleaseCase = {
    id: "api-case-1",
    evalId: "smoke",
    index: 0,
    givenId: true,
    title: null,
    description: null,
    prompt: "What is 2+2?",
    systemPrompt: "Answer.",
    expected,
    tools: [],
    evaluators: [{ kind: "exact" }],
    evaluatorFunction: null,
    data: null,
    labels: [],
    metadata: {},
    timeoutSeconds: null,
    maxSteps: null,
    temperature: null,
    criteria: null,
    judgeMode: "binary",
    judgeThreshold: 7,
    judgeModel: null,
    expectedToolCalls: null,
    allowAdditionalToolCalls: true,
    hasSetup: false,
    hasTeardown: false,
    source: { module: "evals/smoke.ts", file: "evals/smoke.ts", index: 0 },
  };
  const body: Omit<Release, "contentHash"> = {
    format: "benchwork.release",
    protocolVersion: 1,
    title: "API smoke",
    version: "1.0.0",
    license: "MIT",
    description: null,
    tools: [],
    evals: [{ id: "smoke", title: null, module: "evals/smoke.ts", dataFile: null, caseCount: 1 }],
    cases: [c],
  };
  return { ...body, contentHash: contentHash(body) };
}

describe("publish over HTTP", () => {
  it("publishes a release with the token's user as author, and refuses one edited after compiling", async () => {
    await createSystem(db, { id: "pub", name: "Published" });
    const r = await call("POST", "/api/v1/publish", { body: { system: "pub", release: tinyRelease("4") }, token: TOKEN });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ systemId: "pub", created: ["api-case-1"], promptsCreated: ["smoke"] });
    const found = await findCaseByKey(db, "api-case-1");
    expect((await getCase(db, found!.id))?.revisions[0].authorEmail).toBe("ci@example.test");
    const edited = { ...tinyRelease("5"), contentHash: tinyRelease("4").contentHash };
    const refused = await call("POST", "/api/v1/publish", { body: { system: "pub", release: edited }, token: TOKEN });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.json.error.fieldErrors)).toEqual(["release.contentHash"]);
    const bad = await call("POST", "/api/v1/publish", { body: { system: "pub", release: { format: "benchwork.release" } }, token: TOKEN });
    expect(bad.status).toBe(400);
    expect(bad.json.error.fieldErrors).toHaveProperty("release.cases");
    expect((await call("POST", "/api/v1/publish", { body: { system: "nope", release: tinyRelease("4") }, token: TOKEN })).status).toBe(404);
  });
});

describe("dataset import over HTTP", () => {
  const csv = (text: string) => Buffer.from(text).toString("base64");

  it("saves a version as the token's user; rows that cannot become cases are refused with 422 and the problems", async () => {
    const ok = await call("POST", "/api/v1/datasets/import", {
      body: { system: "rec", name: "tickets", fileName: "tickets.csv", fileBase64: csv("input,expected\nhello,hi\n") },
      token: TOKEN,
    });
    expect(ok.status).toBe(201);
    expect(ok.json.saved).toMatchObject({ name: "tickets", version: 1, rowCount: 1 });
    expect(db.select().from(datasetVersions).where(eq(datasetVersions.id, ok.json.saved.versionId)).get()?.authorEmail).toBe("ci@example.test");
    const blocked = await call("POST", "/api/v1/datasets/import", {
      body: { system: "rec", name: "tickets", fileName: "tickets.csv", fileBase64: csv("input,expected\nhello,\n"), use: "answerer" },
      token: TOKEN,
    });
    expect([blocked.status, blocked.json.error.code]).toEqual([422, "blocked_rows"]);
    expect(blocked.json.error.problems.length).toBeGreaterThan(0);
    expect(db.select().from(datasetVersions).all()).toHaveLength(1);
    const bad = await call("POST", "/api/v1/datasets/import", { body: { system: "rec", name: "t", fileName: "../x.csv", fileBase64: "###" }, token: TOKEN });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.error.fieldErrors).sort()).toEqual(["fileBase64", "fileName"]);
    const use = await call("POST", "/api/v1/datasets/import", {
      body: { system: "rec", name: "t", fileName: "t.csv", fileBase64: csv("input,expected\na,b\n"), use: "nope" },
      token: TOKEN,
    });
    expect(use.json.error.fieldErrors.use).toMatch(/^--use: system "rec" has no prompt "nope"/);
  });
});

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 with every route, and its request schemas are the validators' (fields, required ones)", async () => {
    const r = await call("GET", "/api/v1/openapi.json");
    expect(r.status).toBe(200);
    expect(r.json.openapi).toBe("3.1.0");
    expect(Object.keys(r.json.paths).sort()).toEqual([
      "/api/v1/benches",
      "/api/v1/benches/{benchId}/cancel",
      "/api/v1/benches/{benchId}/progress",
      "/api/v1/benches/{benchId}/results",
      "/api/v1/datasets/import",
      "/api/v1/publish",
    ]);
    const run = r.json.components.schemas.BenchRunRequest;
    expect(run.required).toEqual(["system", "prompt"]);
    expect(run.additionalProperties).toBe(false);
    expect(Object.keys(run.properties)).toContain("candidate");
    expect(r.json.components.schemas.DatasetImportRequest.required).toEqual(["system", "name", "fileName", "fileBase64"]);
  });
});
