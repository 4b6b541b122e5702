/**
 * The actor contract (issue 19) on a real database, SQLite and PostgreSQL (issue 20): API tokens
 * (hashed, scoped, revoked, expired), single-user mode, sessions, and requireRole.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { listApiTokens } from "@/db/queries/api-tokens";
import { apiTokens, sessions } from "@/db/schema";
import { describeStores, type TestStore } from "@/db/test-support/stores";
import { createApiToken, revokeOwnApiToken } from "./api-tokens";
import { actorFromRequest, AuthError, LOCAL_ACTOR, requireRole, type Actor } from "./actor-core";
import { createAuth } from "./auth";
import { addUser } from "./users";

const globals = globalThis as unknown as { benchworkDb?: Db; benchworkAuth?: unknown };
let db: Db;
const env = { ...process.env };

/** The server's database and auth instance (getDb(), getAuth()) on the store of the current test. */
function onStore(store: TestStore) {
  beforeEach(() => {
    db = store.db();
    globals.benchworkDb = db;
    globals.benchworkAuth = createAuth({ db, secret: "s".repeat(32), env: {} });
    delete process.env.BENCHWORK_HOST;
  });

  afterEach(() => {
    delete globals.benchworkDb;
    delete globals.benchworkAuth;
    process.env = { ...env };
  });
}

const request = (headers: Record<string, string> = {}) => new Request("http://127.0.0.1:3000/api/benches/1/export", { headers });
const auth = () => globals.benchworkAuth as ReturnType<typeof createAuth>;

describeStores("actorFromRequest", (store) => {
  onStore(store);

  it("is the local admin in single-user mode (no users, loopback), and nobody beyond loopback", async () => {
    expect(await actorFromRequest(request())).toEqual(LOCAL_ACTOR);
    process.env.BENCHWORK_HOST = "0.0.0.0";
    expect(await actorFromRequest(request())).toBeNull();
  });

  it("is nobody in single-user mode once a reverse proxy may bring others (BENCHWORK_ALLOWED_HOSTS, a BENCHWORK_URL beyond loopback)", async () => {
    process.env.BENCHWORK_ALLOWED_HOSTS = "bench.example.com";
    expect(await actorFromRequest(request())).toBeNull();
    delete process.env.BENCHWORK_ALLOWED_HOSTS;
    process.env.BENCHWORK_URL = "https://bench.example.com";
    expect(await actorFromRequest(request())).toBeNull();
    process.env.BENCHWORK_URL = "http://127.0.0.1:3000";
    expect(await actorFromRequest(request())).toEqual(LOCAL_ACTOR);
  });

  it("is nobody without a session once a user exists", async () => {
    await addUser(auth(), { email: "ada@example.com", role: "admin", password: "admin-password-1" });
    expect(await actorFromRequest(request())).toBeNull();
  });

  it("resolves a token to its owner with its scopes, until it is revoked", async () => {
    const ed = await addUser(auth(), { email: "ed@example.com", role: "editor", password: "editor-password-1" });
    const t = await createApiToken(db, ed.id, { name: "ci", scope: "run" }, Date.now());
    const before = Date.now();
    const actor = await actorFromRequest(request({ Authorization: `Bearer ${t.token}` }));
    expect(actor).toEqual({ userId: ed.id, email: "ed@example.com", role: "editor", kind: "token", scopes: ["read", "run"] });
    const [listed] = await listApiTokens(db, ed.id);
    expect(listed).toMatchObject({ id: t.id, name: "ci", scope: "run", prefix: t.token.slice(0, 9), expiresAt: null, revokedAt: null });
    expect(listed.lastUsedAt).toBeGreaterThanOrEqual(before);
    await revokeOwnApiToken(db, ed.id, t.id, Date.now());
    expect(await actorFromRequest(request({ Authorization: `Bearer ${t.token}` }))).toBeNull();
    expect((await listApiTokens(db, ed.id))[0].revokedAt).toBeGreaterThanOrEqual(before);
    await expect(revokeOwnApiToken(db, ed.id, t.id, Date.now())).rejects.toThrow("No such token of yours");
  });

  it("refuses an expired token, an unknown one, and does not fall back to single-user mode for a bad token", async () => {
    const ed = await addUser(auth(), { email: "ed@example.com", role: "editor", password: "editor-password-1" });
    const t = await createApiToken(db, ed.id, { name: "old", scope: "read", expiresInDays: 1 }, Date.now() - 2 * 24 * 3600 * 1000);
    expect(await actorFromRequest(request({ Authorization: `Bearer ${t.token}` }))).toBeNull();
    expect(await actorFromRequest(request({ Authorization: `Bearer bw_${"A".repeat(43)}` }))).toBeNull();
  });

  it("keeps tokens hashed: the stored row does not contain the secret", async () => {
    const ed = await addUser(auth(), { email: "ed@example.com", role: "editor", password: "editor-password-1" });
    const t = await createApiToken(db, ed.id, { name: "ci", scope: "read" }, Date.now());
    const rows = await db.select().from(apiTokens);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(t.token.slice(3));
  });
});

describe("requireRole", () => {
  const editor: Actor = { userId: "u1", email: "ed@example.com", role: "editor", kind: "session" };
  const code = (f: () => unknown) => {
    try {
      f();
      return "ok";
    } catch (e) {
      return e instanceof AuthError ? e.code : String(e);
    }
  };

  it("orders admin > editor > viewer", () => {
    expect(code(() => requireRole(editor, "viewer"))).toBe("ok");
    expect(code(() => requireRole(editor, "editor"))).toBe("ok");
    expect(code(() => requireRole(editor, "admin"))).toBe("forbidden");
    expect(code(() => requireRole(null, "viewer"))).toBe("unauthenticated");
    expect(code(() => requireRole(LOCAL_ACTOR, "admin"))).toBe("ok");
  });

  it("limits a token to its scope: read for viewer-level, run for anything else, never above its owner", () => {
    const read: Actor = { ...editor, kind: "token", scopes: ["read"] };
    const run: Actor = { ...editor, kind: "token", scopes: ["read", "run"] };
    expect(code(() => requireRole(read, "viewer"))).toBe("ok");
    expect(code(() => requireRole(read, "editor"))).toBe("forbidden");
    expect(code(() => requireRole(run, "editor"))).toBe("ok");
    expect(code(() => requireRole(run, "admin"))).toBe("forbidden");
  });
});

describeStores("sessions", (store) => {
  onStore(store);

  async function signedInCookie(): Promise<string> {
    await addUser(auth(), { email: "ada@example.com", role: "admin", password: "admin-password-1" });
    const r = await auth().api.signInEmail({ body: { email: "ada@example.com", password: "admin-password-1" }, returnHeaders: true });
    return r.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  }

  it("resolve the session cookie to its user and role", async () => {
    const cookie = await signedInCookie();
    expect(await actorFromRequest(request({ cookie }))).toMatchObject({ email: "ada@example.com", role: "admin", kind: "session" });
  });

  it("expire: a session past its expiry is refused", async () => {
    const cookie = await signedInCookie();
    await db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) });
    expect(await actorFromRequest(request({ cookie }))).toBeNull();
  });

  it("end on sign-out: the same cookie, replayed, is refused", async () => {
    const cookie = await signedInCookie();
    await auth().api.signOut({ headers: new Headers({ cookie }) });
    expect(await actorFromRequest(request({ cookie }))).toBeNull();
  });
});
