import { existsSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { closeStore, openPgStore } from "@/db/pg/store";
import { describePg, useTestDatabaseAsStore } from "@/db/pg/test-support/database";
import { users as usersTable } from "@/db/schema";
import { createAuth } from "@/server/auth/auth";
import { main } from "../main";
import { captureIo } from "../testing";
import { withCliDatabase } from "../test-database";
import { userAddCommand } from "./user-add";

const { dir, file } = withCliDatabase("benchwork-user-add-");

function users(): { email: string; role: string }[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("SELECT email, role FROM users ORDER BY email").all() as { email: string; role: string }[];
  } finally {
    db.close();
  }
}

async function* lines(text: string) {
  yield Buffer.from(text);
}

describe("benchwork user add", () => {
  it("adds the first admin and prints a one-time password once; the signing key lands beside the database", async () => {
    const io = captureIo();
    expect(await main(["user", "add", "--admin", "ada@example.com"], io)).toBe(0);
    expect(io.stdout[0]).toBe(`added ada@example.com as admin to ${file}`);
    expect(io.stdout[1]).toMatch(/^one-time password \(shown once, not stored in clear\): [A-Za-z0-9_-]{24}$/);
    expect(users()).toEqual([{ email: "ada@example.com", role: "admin" }]);
    expect(existsSync(path.join(dir, "auth-secret"))).toBe(true);
  });

  it("reads the password from stdin with --password-stdin and prints none", async () => {
    const io = captureIo();
    expect(await userAddCommand("ed@example.com", { role: "editor", passwordStdin: true }, io, lines("editor-password-1\n"))).toBe(0);
    expect(io.stdout).toEqual([`added ed@example.com as editor to ${file}`]);
    expect(users()).toContainEqual({ email: "ed@example.com", role: "editor" });
  });

  it("refuses a taken e-mail (exit 1) and bad input (exit 2), naming the problem", async () => {
    let io = captureIo();
    expect(await main(["user", "add", "ada@example.com"], io)).toBe(1);
    expect(io.stderr).toEqual(["benchwork: A user with the e-mail ada@example.com already exists."]);
    io = captureIo();
    expect(await userAddCommand("bob@example.com", { passwordStdin: true }, io, lines("short\n")).catch((e) => e.message)).toBe(
      "password (stdin): Use at least 12 characters.",
    );
    io = captureIo();
    expect(await main(["user", "add", "--role", "owner", "bob@example.com"], io)).toBe(2);
    expect(io.stderr[0]).toContain("--role must be one of admin, editor, viewer");
  });
});

describePg("benchwork user add [postgres]", () => {
  const databaseUrl = useTestDatabaseAsStore();

  it("adds the user to the PostgreSQL store BENCHWORK_DATABASE_URL names (not to the SQLite file), and the password signs in there", async () => {
    const io = captureIo();
    expect(await userAddCommand("pg@example.com", { admin: true, passwordStdin: true }, io, lines("admin-password-1\n"))).toBe(0);
    expect(io.stdout).toEqual([`added pg@example.com as admin to ${new URL(databaseUrl()).host}${new URL(databaseUrl()).pathname} (PostgreSQL)`]);
    expect(users().map((u) => u.email)).not.toContain("pg@example.com");
    const db = openPgStore(databaseUrl(), 1);
    try {
      expect(await db.select({ email: usersTable.email, role: usersTable.role }).from(usersTable)).toEqual([{ email: "pg@example.com", role: "admin" }]);
      const auth = createAuth({ db, secret: "s".repeat(32), env: {} });
      expect((await auth.api.signInEmail({ body: { email: "pg@example.com", password: "admin-password-1" } })).user.email).toBe("pg@example.com");
    } finally {
      await closeStore(db);
    }
    const again = captureIo();
    expect(await main(["user", "add", "pg@example.com"], again)).toBe(1);
    expect(again.stderr).toEqual(["benchwork: A user with the e-mail pg@example.com already exists."]);
  });
});
