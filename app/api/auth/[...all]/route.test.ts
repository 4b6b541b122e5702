/**
 * better-auth's HTTP endpoints as the app serves them (issue 19), on a real in-memory database.
 * Attacked for real: an admin's session could call the admin plugin's own endpoints
 * (`/api/auth/admin/impersonate-user`, `/admin/set-role` on the last admin, `/admin/create-user`)
 * and so act as another user (forging authorship) or lock every admin out, past the Users page's
 * rules and the activity log. Only the endpoints the pages use are served.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openMemoryDatabase, type Db } from "@/db/client";
import { countAdmins } from "@/db/queries/users";
import { createAuth } from "@/server/auth/auth";
import { addUser } from "@/server/auth/users";
import { GET, POST } from "./route";

const globals = globalThis as unknown as { benchworkDb?: Db; benchworkAuth?: unknown };
let db: Db;
const ORIGIN = "http://127.0.0.1:3000";

beforeEach(() => {
  db = openMemoryDatabase();
  globals.benchworkDb = db;
  globals.benchworkAuth = createAuth({ db, secret: "s".repeat(32), env: {} });
});
afterEach(() => {
  db.$client.close();
  delete globals.benchworkDb;
  delete globals.benchworkAuth;
});

const auth = () => globals.benchworkAuth as ReturnType<typeof createAuth>;
const post = (path: string, body: unknown, cookie = "") =>
  POST(
    new Request(`${ORIGIN}/api/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: ORIGIN, cookie },
      body: JSON.stringify(body),
    }),
  );

/** Signs in through the route and returns the session cookie. */
async function signIn(email: string, password: string): Promise<string> {
  const res = await post("/sign-in/email", { email, password });
  expect(res.status).toBe(200);
  return (res.headers.get("set-cookie") ?? "").split(";")[0];
}

describe("/api/auth/*", () => {
  it("signs in, reads the session and signs out through the endpoints the pages use", async () => {
    await addUser(auth(), { email: "ada@example.com", role: "admin", password: "admin-password-1" });
    const cookie = await signIn("ada@example.com", "admin-password-1");
    const session = await GET(new Request(`${ORIGIN}/api/auth/get-session`, { headers: { cookie } }));
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe("ada@example.com");
    expect((await post("/sign-out", {}, cookie)).status).toBe(200);
  });

  it("does not serve the admin plugin's endpoints, even to an admin (impersonation, role changes, new users)", async () => {
    await addUser(auth(), { email: "ada@example.com", role: "admin", password: "admin-password-1" });
    const ed = await addUser(auth(), { email: "ed@example.com", role: "editor", password: "editor-password-1" });
    const admin = (await db.query.users.findFirst({ where: (u, { eq }) => eq(u.email, "ada@example.com") }))!;
    const cookie = await signIn("ada@example.com", "admin-password-1");
    expect((await post("/admin/impersonate-user", { userId: ed.id }, cookie)).status).toBe(404);
    expect((await post("/admin/set-role", { userId: admin.id, role: "viewer" }, cookie)).status).toBe(404);
    expect((await post("/admin/create-user", { email: "x@example.com", password: "x-password-123", name: "x", role: "admin" }, cookie)).status).toBe(404);
    expect((await GET(new Request(`${ORIGIN}/api/auth/admin/list-users`, { headers: { cookie } }))).status).toBe(404);
    expect(await countAdmins(db)).toBe(1);
  });

  it("does not serve session listings (they carry other sessions' tokens) nor account changes the pages do not offer", async () => {
    await addUser(auth(), { email: "vi@example.com", role: "viewer", password: "viewer-password-1" });
    const cookie = await signIn("vi@example.com", "viewer-password-1");
    expect((await GET(new Request(`${ORIGIN}/api/auth/list-sessions`, { headers: { cookie } }))).status).toBe(404);
    expect((await post("/update-user", { name: "someone else" }, cookie)).status).toBe(404);
    expect((await post("/unlink-account", { providerId: "credential" }, cookie)).status).toBe(404);
  });
});
