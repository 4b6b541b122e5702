/**
 * Who is acting (issue 19), without next/headers so proxy.ts can use it too; server/auth/actor.ts
 * is the contract that re-exports it with `currentActor`. The session comes from better-auth
 * (server/auth/instance.ts); personal API tokens from the api_tokens table.
 */
import { getDb } from "@/db/client";
import { findApiTokenByHash, touchApiToken } from "@/db/queries/api-tokens";
import { parseRole, roleAtLeast, scopeFor, scopesOf, type Role } from "@/lib/auth/roles";
import { bearerToken, hashToken, tokenRefusal } from "@/lib/auth/tokens";
import { countUsers } from "@/db/queries/users";
import { getAuth, singleUserModeAllowed } from "./instance";

export type { Role };

export interface Actor {
  userId: string;
  email: string;
  role: Role;
  kind: "local" | "session" | "token";
  scopes?: ("read" | "run")[];
}

/** The actor of single-user mode (no users, loopback): the person at the keyboard, as admin. */
export const LOCAL_ACTOR: Actor = { userId: "local", email: "local", role: "admin", kind: "local" };

/** A refused check: `unauthenticated` (no valid session or token) or `forbidden` (role or scope too low). */
export class AuthError extends Error {
  /** Shown to the user as is (lib/shell/result failure()). */
  readonly expose = true;
  constructor(
    public code: "unauthenticated" | "forbidden",
    message: string,
  ) {
    super(message);
    this.name = "AuthError";
  }
}

/** The actor behind these request headers: session cookie, else single-user mode, else null. */
export async function actorFromHeaders(h: Headers): Promise<Actor | null> {
  // No user, no session to look up (and no signing key needed): single-user mode, when only this
  // machine can reach the server (not behind a reverse proxy: see singleUserModeAllowed).
  if ((await countUsers(getDb())) === 0) return singleUserModeAllowed() ? LOCAL_ACTOR : null;
  const session = await getAuth().api.getSession({ headers: h });
  if (session) return { userId: session.user.id, email: session.user.email, role: parseRole(session.user.role), kind: "session" };
  return null;
}

/**
 * Resolves `Authorization: Bearer <token>` (personal API token; hashed at rest, revocable, optional expiry, scopes read|run)
 * or, failing that, the session cookie. Null when missing/invalid/revoked/expired (a request that
 * presents a bad token is not let through on its cookie either).
 */
export async function actorFromRequest(request: Request): Promise<Actor | null> {
  const authorization = request.headers.get("authorization");
  if (authorization) {
    const token = bearerToken(authorization);
    if (!token) return null;
    const db = getDb();
    const row = await findApiTokenByHash(db, hashToken(token));
    const now = Date.now();
    if (!row || tokenRefusal(row, now)) return null;
    await touchApiToken(db, row.id, now);
    return { userId: row.userId, email: row.email, role: parseRole(row.role), kind: "token", scopes: scopesOf(row.scope) };
  }
  return actorFromHeaders(request.headers);
}

/**
 * Throws AuthError (code "unauthenticated" | "forbidden") unless the actor has at least `role` (admin > editor > viewer)
 * and, for tokens, the scope ("read" for viewer-level reads, "run" for anything else).
 * @returns the actor, for chaining
 */
export function requireRole(actor: Actor | null, role: Role): Actor {
  if (!actor) throw new AuthError("unauthenticated", "Sign in first: your session has ended or was never started.");
  if (!roleAtLeast(actor.role, role)) throw new AuthError("forbidden", `This needs the ${role} role; you are signed in as ${actor.role}.`);
  if (actor.kind === "token" && !(actor.scopes ?? []).includes(scopeFor(role)))
    throw new AuthError("forbidden", `This token's scope does not allow it: it needs the "${scopeFor(role)}" scope.`);
  return actor;
}
