/**
 * User management workflows (issue 19), shared by `benchwork user add` and the Users page. Users
 * are created through better-auth (it hashes the password); roles and sign-out-everywhere are
 * plain row writes (db/queries/users.ts).
 */
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db } from "@/db/client";
import { countAdmins, deleteUser, deleteUserSessions, getUser, setUserRole } from "@/db/queries/users";
import { LibraryError } from "@/lib/library/errors";
import { ROLES, type Role } from "@/lib/auth/roles";
import type { Auth } from "./auth";

/** Input of {@link addUser}: password absent = generate a one-time password. */
export const newUserSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ message: "Enter an e-mail address, e.g. ada@example.com." })),
  role: z.enum(ROLES as [Role, ...Role[]]),
  name: z.string().trim().max(200).optional(),
  password: z.string().min(12, "Use at least 12 characters.").max(256).optional(),
});

/** A generated password: 18 random bytes in base64url (24 characters). */
export function generatePassword(): string {
  return randomBytes(18).toString("base64url");
}

/**
 * Creates a user with a password.
 * @returns the user's id, and the password when it was generated here (shown once, never stored in clear)
 * @throws LibraryError "conflict" when the e-mail is taken; ZodError on bad input
 */
export async function addUser(auth: Auth, input: z.input<typeof newUserSchema>): Promise<{ id: string; email: string; generatedPassword: string | null }> {
  const v = newUserSchema.parse(input);
  const password = v.password ?? generatePassword();
  try {
    const r = await auth.api.createUser({ body: { email: v.email, password, name: v.name || v.email, role: v.role } });
    return { id: r.user.id, email: r.user.email, generatedPassword: v.password ? null : password };
  } catch (e) {
    const msg = (e as Error).message ?? "";
    if (/exist/i.test(msg)) throw new LibraryError("conflict", `A user with the e-mail ${v.email} already exists.`);
    throw e;
  }
}

async function mustExist(db: Db, id: string) {
  const u = await getUser(db, id);
  if (!u) throw new LibraryError("not_found", "No such user (removed meanwhile?).");
  return u;
}

/**
 * Changes a user's role; their open sessions see it on their next request.
 * @throws LibraryError "not_found"; "conflict" when it would leave no admin
 */
export async function changeRole(db: Db, id: string, role: Role, now: number): Promise<void> {
  const u = await mustExist(db, id);
  if (u.role === "admin" && role !== "admin" && (await countAdmins(db)) <= 1)
    throw new LibraryError("conflict", "This is the last admin: make another user admin first.");
  await setUserRole(db, id, role, now);
}

/**
 * Removes a user (their sessions and API tokens go too). What they authored stays.
 * @throws LibraryError "not_found"; "conflict" for the last admin or for yourself
 */
export async function removeUser(db: Db, id: string, actingUserId: string): Promise<void> {
  const u = await mustExist(db, id);
  if (id === actingUserId) throw new LibraryError("conflict", "You cannot remove yourself; ask another admin.");
  if (u.role === "admin" && (await countAdmins(db)) <= 1) throw new LibraryError("conflict", "This is the last admin: make another user admin first.");
  await deleteUser(db, id);
}

/** Signs a user out on every browser. @returns how many sessions ended */
export async function signOutEverywhere(db: Db, id: string): Promise<number> {
  await mustExist(db, id);
  return deleteUserSessions(db, id);
}
