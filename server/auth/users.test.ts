/**
 * User management (issue 19) through better-auth and db/queries/users.ts, on both stores (issue 20):
 * better-auth's drizzle adapter signs users up and in on PostgreSQL too.
 */
import { beforeEach, expect, it } from "vitest";
import { listUsers } from "@/db/queries/users";
import { authAccounts } from "@/db/schema";
import { describeStores } from "@/db/test-support/stores";
import { createAuth } from "./auth";
import { addUser, changeRole, removeUser, signOutEverywhere } from "./users";

describeStores("user management", (store) => {
  let auth: ReturnType<typeof createAuth>;
  beforeEach(() => {
    auth = createAuth({ db: store.db(), secret: "s".repeat(32), env: {} });
  });

  it("gives better-auth's drizzle adapter the store's dialect (pg on PostgreSQL: native JSON, arrays, ILIKE)", async () => {
    const { adapter } = await auth.$context;
    const config = (adapter.options as { adapterConfig?: { supportsJSON?: boolean; supportsArrays?: boolean } } | undefined)?.adapterConfig;
    expect([config?.supportsJSON, config?.supportsArrays]).toEqual(store.kind === "postgres" ? [true, true] : [false, false]);
  });

  it("adds a user with a generated one-time password that signs in, stored only as a hash", async () => {
    const db = store.db();
    const r = await addUser(auth, { email: " Ada@Example.com ", role: "admin" });
    expect(r.email).toBe("ada@example.com");
    expect(r.generatedPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const [stored] = await db.select({ password: authAccounts.password }).from(authAccounts);
    expect(stored.password).toBeTruthy();
    expect(stored.password).not.toContain(r.generatedPassword!);
    const signIn = await auth.api.signInEmail({ body: { email: "ada@example.com", password: r.generatedPassword! } });
    expect(signIn.user.email).toBe("ada@example.com");
    const [ada] = await listUsers(db, Date.now());
    expect([ada.email, ada.role, ada.activeSessions]).toEqual(["ada@example.com", "admin", 1]);
  });

  it("refuses a wrong password and a taken e-mail and a short password, naming them", async () => {
    await addUser(auth, { email: "ada@example.com", role: "admin", password: "admin-password-1" });
    await expect(auth.api.signInEmail({ body: { email: "ada@example.com", password: "wrong-password-1" } })).rejects.toThrow("Invalid email or password");
    await expect(addUser(auth, { email: "ada@example.com", role: "viewer" })).rejects.toThrow("A user with the e-mail ada@example.com already exists.");
    await expect(addUser(auth, { email: "bob@example.com", role: "viewer", password: "short" })).rejects.toThrow("Use at least 12 characters.");
  });

  it("keeps the last admin and refuses to remove yourself", async () => {
    const db = store.db();
    const ada = await addUser(auth, { email: "ada@example.com", role: "admin" });
    const bob = await addUser(auth, { email: "bob@example.com", role: "viewer" });
    await expect(changeRole(db, ada.id, "viewer", Date.now())).rejects.toThrow("This is the last admin");
    await expect(removeUser(db, ada.id, ada.id)).rejects.toThrow("You cannot remove yourself");
    await expect(changeRole(db, "nobody", "viewer", Date.now())).rejects.toThrow("No such user");
    await changeRole(db, bob.id, "editor", Date.now());
    expect((await listUsers(db, Date.now())).map((u) => [u.email, u.role])).toEqual([
      ["ada@example.com", "admin"],
      ["bob@example.com", "editor"],
    ]);
    await removeUser(db, bob.id, ada.id);
    expect((await listUsers(db, Date.now())).map((u) => u.email)).toEqual(["ada@example.com"]);
  });

  it("signs a user out everywhere: their sessions are gone", async () => {
    const db = store.db();
    const r = await addUser(auth, { email: "ada@example.com", role: "admin", password: "admin-password-1" });
    await auth.api.signInEmail({ body: { email: "ada@example.com", password: "admin-password-1" } });
    await auth.api.signInEmail({ body: { email: "ada@example.com", password: "admin-password-1" } });
    expect((await listUsers(db, Date.now()))[0].activeSessions).toBe(2);
    expect(await signOutEverywhere(db, r.id)).toBe(2);
    expect((await listUsers(db, Date.now()))[0].activeSessions).toBe(0);
  });
});
