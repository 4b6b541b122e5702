import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openMemoryDatabase, type Db } from "@/db/client";
import { listUsers } from "@/db/queries/users";
import { createAuth } from "./auth";
import { addUser, changeRole, removeUser, signOutEverywhere } from "./users";

let db: Db;
let auth: ReturnType<typeof createAuth>;
beforeEach(() => {
  db = openMemoryDatabase();
  auth = createAuth({ db, secret: "s".repeat(32), env: {} });
});
afterEach(() => db.$client.close());

describe("user management", () => {
  it("adds a user with a generated one-time password that signs in, stored only as a hash", async () => {
    const r = await addUser(auth, { email: " Ada@Example.com ", role: "admin" });
    expect(r.email).toBe("ada@example.com");
    expect(r.generatedPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const stored = db.$client.prepare("SELECT password FROM auth_accounts").get() as { password: string };
    expect(stored.password).not.toContain(r.generatedPassword!);
    const signIn = await auth.api.signInEmail({ body: { email: "ada@example.com", password: r.generatedPassword! } });
    expect(signIn.user.email).toBe("ada@example.com");
  });

  it("refuses a taken e-mail and a short password, naming them", async () => {
    await addUser(auth, { email: "ada@example.com", role: "admin" });
    await expect(addUser(auth, { email: "ada@example.com", role: "viewer" })).rejects.toThrow("A user with the e-mail ada@example.com already exists.");
    await expect(addUser(auth, { email: "bob@example.com", role: "viewer", password: "short" })).rejects.toThrow("Use at least 12 characters.");
  });

  it("keeps the last admin and refuses to remove yourself", async () => {
    const ada = await addUser(auth, { email: "ada@example.com", role: "admin" });
    const bob = await addUser(auth, { email: "bob@example.com", role: "viewer" });
    expect(() => changeRole(db, ada.id, "viewer", Date.now())).toThrow("This is the last admin");
    expect(() => removeUser(db, ada.id, ada.id)).toThrow("You cannot remove yourself");
    changeRole(db, bob.id, "editor", Date.now());
    expect(listUsers(db, Date.now()).map((u) => [u.email, u.role])).toEqual([
      ["ada@example.com", "admin"],
      ["bob@example.com", "editor"],
    ]);
    removeUser(db, bob.id, ada.id);
    expect(listUsers(db, Date.now()).map((u) => u.email)).toEqual(["ada@example.com"]);
  });

  it("signs a user out everywhere: their sessions are gone", async () => {
    const r = await addUser(auth, { email: "ada@example.com", role: "admin", password: "admin-password-1" });
    await auth.api.signInEmail({ body: { email: "ada@example.com", password: "admin-password-1" } });
    await auth.api.signInEmail({ body: { email: "ada@example.com", password: "admin-password-1" } });
    expect(listUsers(db, Date.now())[0].activeSessions).toBe(2);
    expect(signOutEverywhere(db, r.id)).toBe(2);
    expect(listUsers(db, Date.now())[0].activeSessions).toBe(0);
  });
});
