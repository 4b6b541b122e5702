/**
 * Users, their sessions and roles (issue 19). better-auth creates users and sessions; these are the
 * plain reads and writes the Users page and the role checks need.
 */
import { asc, count, eq } from "drizzle-orm";
import type { Db } from "../client";
import { first } from "../rows";
import { sessions, users } from "../schema";

/** A user as the Users page lists it; `role` as stored (admin, editor, viewer). */
export interface UserRow {
  id: string;
  email: string;
  name: string;
  role: string;
  createdAt: Date;
  /** Sessions not yet expired. */
  activeSessions: number;
}

/** How many users exist (0 = single-user mode on loopback). */
export async function countUsers(db: Db): Promise<number> {
  return (await first(db.select({ n: count() }).from(users)))?.n ?? 0;
}

/** Every user, oldest first, with the number of live sessions. */
export async function listUsers(db: Db, now: number): Promise<UserRow[]> {
  const rows = await db.select().from(users).orderBy(asc(users.createdAt), asc(users.email));
  const live = await db.select({ userId: sessions.userId, expiresAt: sessions.expiresAt }).from(sessions);
  return rows.map((u) => ({
    id: u.id,
    email: u.email,
    name: u.name,
    role: u.role,
    createdAt: u.createdAt,
    activeSessions: live.filter((s) => s.userId === u.id && s.expiresAt.getTime() > now).length,
  }));
}

/** One user by id, or null. */
export async function getUser(db: Db, id: string): Promise<{ id: string; email: string; role: string } | null> {
  return (await first(db.select({ id: users.id, email: users.email, role: users.role }).from(users).where(eq(users.id, id)))) ?? null;
}

/** Sets a user's role. @returns false when there is no such user */
export async function setUserRole(db: Db, id: string, role: string, now: number): Promise<boolean> {
  const changed = await db
    .update(users)
    .set({ role, updatedAt: new Date(now) })
    .where(eq(users.id, id))
    .returning({ id: users.id });
  return changed.length > 0;
}

/** Deletes every session of a user (sign-out everywhere). @returns how many were deleted */
export async function deleteUserSessions(db: Db, id: string): Promise<number> {
  return (await db.delete(sessions).where(eq(sessions.userId, id)).returning({ id: sessions.id })).length;
}

/** Deletes a user; sessions, sign-in methods and API tokens go with it (ON DELETE CASCADE). */
export async function deleteUser(db: Db, id: string): Promise<boolean> {
  return (await db.delete(users).where(eq(users.id, id)).returning({ id: users.id })).length > 0;
}

/** How many admins exist (the last one cannot be demoted or removed). */
export async function countAdmins(db: Db): Promise<number> {
  return (await first(db.select({ n: count() }).from(users).where(eq(users.role, "admin"))))?.n ?? 0;
}
