/**
 * Personal API tokens, pure parts: the secret's shape, its hash, and whether a stored token may be
 * used now. A token is `bw_` + 32 random bytes in base64url (256 bits), so a fast hash (SHA-256) is
 * enough at rest: there is nothing to guess, unlike a password.
 */
import { createHash } from "node:crypto";

export const TOKEN_PREFIX = "bw_";

/**
 * A new secret from 32 random bytes.
 * @param random32 32 random bytes (the caller passes crypto.randomBytes(32))
 */
export function formatToken(random32: Uint8Array): string {
  if (random32.length !== 32) throw new Error("a token needs 32 random bytes");
  return TOKEN_PREFIX + Buffer.from(random32).toString("base64url");
}

/** The stored form: hex SHA-256 of the whole secret. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** What the list shows of a token: the prefix and the first 6 characters after it. */
export function tokenDisplayPrefix(token: string): string {
  return token.slice(0, TOKEN_PREFIX.length + 6);
}

/** Why a stored token is refused, or null when it may be used at `now` (ms). */
export function tokenRefusal(row: { expiresAt: number | null; revokedAt: number | null }, now: number): "revoked" | "expired" | null {
  if (row.revokedAt !== null) return "revoked";
  if (row.expiresAt !== null && row.expiresAt <= now) return "expired";
  return null;
}

/** The secret from an `Authorization` header value (`Bearer bw_…`), or null. */
export function bearerToken(header: string | null): string | null {
  const m = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return m && m[1].startsWith(TOKEN_PREFIX) ? m[1] : null;
}
