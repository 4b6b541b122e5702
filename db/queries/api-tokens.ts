/** Personal API tokens (issue 19): rows hold the SHA-256 of the secret, never the secret. */
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "../client";
import { first } from "../rows";
import { apiTokens, users } from "../schema";

/** A token as its owner's Tokens page lists it. Times in ms; null = never / not yet. */
export interface ApiTokenRow {
  id: number;
  name: string;
  scope: "read" | "run";
  prefix: string;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

/** Stores a new token (already hashed). @returns its id */
export async function insertApiToken(
  db: Db,
  row: { userId: string; name: string; scope: "read" | "run"; tokenHash: string; prefix: string; createdAt: number; expiresAt: number | null },
): Promise<number> {
  const inserted = await first(db.insert(apiTokens).values(row).returning({ id: apiTokens.id }));
  return inserted!.id;
}

/** A user's tokens, newest first. */
export async function listApiTokens(db: Db, userId: string): Promise<ApiTokenRow[]> {
  return db
    .select({
      id: apiTokens.id,
      name: apiTokens.name,
      scope: apiTokens.scope,
      prefix: apiTokens.prefix,
      createdAt: apiTokens.createdAt,
      expiresAt: apiTokens.expiresAt,
      revokedAt: apiTokens.revokedAt,
      lastUsedAt: apiTokens.lastUsedAt,
    })
    .from(apiTokens)
    .where(eq(apiTokens.userId, userId))
    .orderBy(desc(apiTokens.id));
}

/** Marks a token of this user revoked. @returns false when it is not theirs or already revoked */
export async function revokeApiToken(db: Db, userId: string, id: number, now: number): Promise<boolean> {
  const revoked = await db
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  return revoked.length > 0;
}

/** The token with this hash and its owner, or null. */
export async function findApiTokenByHash(
  db: Db,
  tokenHash: string,
): Promise<{ id: number; scope: "read" | "run"; expiresAt: number | null; revokedAt: number | null; userId: string; email: string; role: string } | null> {
  return (
    (await first(
      db
        .select({
          id: apiTokens.id,
          scope: apiTokens.scope,
          expiresAt: apiTokens.expiresAt,
          revokedAt: apiTokens.revokedAt,
          userId: users.id,
          email: users.email,
          role: users.role,
        })
        .from(apiTokens)
        .innerJoin(users, eq(users.id, apiTokens.userId))
        .where(eq(apiTokens.tokenHash, tokenHash)),
    )) ?? null
  );
}

/** Records a token's use (shown on the Tokens page). */
export async function touchApiToken(db: Db, id: number, now: number): Promise<void> {
  await db.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, id));
}
