/**
 * Users, their sessions and roles (issue 19). better-auth creates users and sessions; these are the
 * plain reads and writes the Users page and the role checks need.
 */
import { asc, count, eq } from "drizzle-orm";
import type { Db } from "../client";
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
export function countUsers(db: Db): number {
  return db.select({ n: count() }).from(users).get()?.n ?? 0;
}

/** Every user, oldest first, with the number of live sessions. */
export function listUsers(db: Db, now: number): UserRow[] {
  const rows = db.select().from(users).orderBy(asc(users.createdAt), asc(users.email)).all();
  const live = db.select({ userId: sessions.userId, expiresAt: sessions.expiresAt }).from(sessions).all();
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
export function getUser(db: Db, id: string): { id: string; email: string; role: string } | null {
  return db.select({ id: users.id, email: users.email, role: users.role }).from(users).where(eq(users.id, id)).get() ?? null;
}

/** Sets a user's role. @returns false when there is no such user */
export function setUserRole(db: Db, id: string, role: string, now: number): boolean {
  return (
    db
      .update(users)
      .set({ role, updatedAt: new Date(now) })
      .where(eq(users.id, id))
      .run().changes > 0
  );
}

/** Deletes every session of a user (sign-out everywhere). @returns how many were deleted */
export function deleteUserSessions(db: Db, id: string): number {
  return db.delete(sessions).where(eq(sessions.userId, id)).run().changes;
}

/** Deletes a user; sessions, sign-in methods and API tokens go with it (ON DELETE CASCADE). */
export function deleteUser(db: Db, id: string): boolean {
  return db.delete(users).where(eq(users.id, id)).run().changes > 0;
}

/** How many admins exist (the last one cannot be demoted or removed). */
export function countAdmins(db: Db): number {
  return db.select({ n: count() }).from(users).where(eq(users.role, "admin")).get()?.n ?? 0;
}
