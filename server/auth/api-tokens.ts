/**
 * Personal API tokens (issue 19): made here, shown once, stored as a SHA-256 hash
 * (lib/auth/tokens.ts). `actorFromRequest` (server/auth/actor-core.ts) resolves them.
 */
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db } from "@/db/client";
import { insertApiToken, revokeApiToken } from "@/db/queries/api-tokens";
import { formatToken, hashToken, tokenDisplayPrefix } from "@/lib/auth/tokens";
import { LibraryError } from "@/lib/library/errors";

/** Longest allowed lifetime of a token with an expiry, in days. */
export const MAX_TOKEN_DAYS = 366;

/** Input of {@link createApiToken}: `expiresInDays` absent or null = never expires. */
export const newTokenSchema = z.object({
  name: z.string().trim().min(1, "Name the token (e.g. the CI job that uses it).").max(100),
  scope: z.enum(["read", "run"]),
  expiresInDays: z.coerce.number().int().min(1).max(MAX_TOKEN_DAYS).nullish(),
});

/**
 * Creates a token for `userId`.
 * @returns the secret (only now: it is stored hashed), its id and expiry (ms or null)
 * @throws ZodError on bad input
 */
export async function createApiToken(db: Db, userId: string, input: unknown, now: number): Promise<{ id: number; token: string; expiresAt: number | null }> {
  const v = newTokenSchema.parse(input);
  const token = formatToken(randomBytes(32));
  const expiresAt = v.expiresInDays ? now + v.expiresInDays * 24 * 3600 * 1000 : null;
  const id = await insertApiToken(db, {
    userId,
    name: v.name,
    scope: v.scope,
    tokenHash: hashToken(token),
    prefix: tokenDisplayPrefix(token),
    createdAt: now,
    expiresAt,
  });
  return { id, token, expiresAt };
}

/**
 * Revokes one of the user's tokens; a request with it is refused from then on.
 * @throws LibraryError "not_found" when it is not theirs or already revoked
 */
export async function revokeOwnApiToken(db: Db, userId: string, id: number, now: number): Promise<void> {
  if (!(await revokeApiToken(db, userId, id, now))) throw new LibraryError("not_found", "No such token of yours (revoked already?).");
}
