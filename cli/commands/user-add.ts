/**
 * `benchwork user add EMAIL [--admin | --role ROLE] [--password-stdin]` (issue 19): adds a user to
 * the store: PostgreSQL when BENCHWORK_DATABASE_URL is set (issue 20), else the SQLite file
 * BENCHWORK_DB. Prints a one-time password, or takes the password from stdin.
 * Exit 0 when added; 1 when the e-mail is taken; 2 on a usage error.
 */
import { ZodError } from "zod";
import { databasePath, migrateDatabase, openDatabase, type Db } from "@/db/client";
import { migratePostgres, postgresUrl } from "@/db/pg/client";
import { closeStore, openPgStore } from "@/db/pg/store";
import { LibraryError } from "@/lib/library/errors";
import { ROLES, type Role } from "@/lib/auth/roles";
import { createAuth } from "@/server/auth/auth";
import { authSecret } from "@/server/auth/secret";
import { addUser } from "@/server/auth/users";
import { CliError, usage, type Io } from "../io";

/** Options of {@link userAddCommand}. */
export interface UserAddOptions {
  admin?: boolean;
  role?: string;
  passwordStdin?: boolean;
}

/** Reads all of stdin (the password; one trailing newline dropped). */
async function readStdin(stdin: AsyncIterable<Buffer | string>): Promise<string> {
  let text = "";
  for await (const chunk of stdin) text += chunk.toString();
  return text.replace(/\r?\n$/, "");
}

/** Runs the command; returns the exit code. `stdin` is process.stdin unless a test passes its own. */
export async function userAddCommand(email: string, o: UserAddOptions, io: Io, stdin: AsyncIterable<Buffer | string> = process.stdin): Promise<number> {
  if (o.admin && o.role && o.role !== "admin") throw usage("--admin and --role disagree: give one of them");
  const role = (o.admin ? "admin" : (o.role ?? "viewer")) as Role;
  if (!ROLES.includes(role)) throw usage(`--role must be one of ${ROLES.join(", ")} (got ${JSON.stringify(o.role)})`);
  const password = o.passwordStdin ? await readStdin(stdin) : undefined;
  const url = postgresUrl();
  // Where it went, without the URL's credentials.
  const where = url ? `${new URL(url).host}${new URL(url).pathname} (PostgreSQL)` : databasePath();
  let db: Db;
  if (url) {
    await migratePostgres(url);
    db = openPgStore(url, 2);
  } else {
    db = openDatabase(where);
    migrateDatabase(db);
  }
  try {
    // Adding a user signs nothing: on PostgreSQL no signing key is written beside a SQLite path the
    // store does not use (BENCHWORK_AUTH_SECRET still counts when set).
    const auth = createAuth({ db, secret: authSecret(process.env, url ? ":memory:" : where), env: process.env });
    let r;
    try {
      r = await addUser(auth, { email, role, password });
    } catch (e) {
      if (e instanceof ZodError)
        throw usage(e.issues.map((i) => `${i.path[0] === "password" ? "password (stdin)" : String(i.path[0] ?? "input")}: ${i.message}`).join("; "));
      if (e instanceof LibraryError) throw new CliError(e.message, 1);
      throw e;
    }
    io.out(`added ${r.email} as ${role} to ${where}`);
    if (r.generatedPassword) io.out(`one-time password (shown once, not stored in clear): ${r.generatedPassword}`);
    return 0;
  } finally {
    await closeStore(db);
  }
}
