/**
 * Who is acting (issue 19). PLACEHOLDER on the `api` branch: single-user mode only. The `auth`
 * branch replaces the bodies of `currentActor` and `actorFromRequest` (sessions, hashed API tokens)
 * at merge; names and signatures are the shared contract. `requireRole` is the real check.
 */
export type Role = "admin" | "editor" | "viewer";

/** A signed-in person, a local single-user session, or an API token acting for a user. */
export interface Actor {
  userId: string;
  email: string;
  role: Role;
  kind: "local" | "session" | "token";
  /** Token scopes; absent for sessions and the local actor. */
  scopes?: ("read" | "run")[];
}

/** Refused: `unauthenticated` (no actor) or `forbidden` (role or token scope too low). */
export class AuthError extends Error {
  constructor(
    readonly code: "unauthenticated" | "forbidden",
    message: string,
  ) {
    super(message);
    this.name = "AuthError";
  }
}

const LOCAL: Actor = { userId: "local", email: "local", role: "admin", kind: "local" };

/** Placeholder: single-user mode → the local admin. */
export async function currentActor(): Promise<Actor | null> {
  return { ...LOCAL };
}

/**
 * Placeholder: the local actor when the request has no Authorization header; with `Bearer <token>`
 * the actor only when the token equals `BENCHWORK_TEST_TOKEN` (tests), else null.
 */
export async function actorFromRequest(request: Request): Promise<Actor | null> {
  const header = request.headers.get("authorization");
  if (!header) return { ...LOCAL };
  const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
  const expected = process.env.BENCHWORK_TEST_TOKEN;
  if (!m || !expected || m[1] !== expected) return null;
  return { userId: "test-token-user", email: "ci@example.test", role: "editor", kind: "token", scopes: ["read", "run"] };
}

const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2 };

/**
 * The one role check: the actor when its role is at least `role` (admin > editor > viewer) and, for a
 * token, its scopes allow it ("read" for viewer-level reads, "run" for anything more).
 * @throws AuthError `unauthenticated` when `actor` is null; `forbidden` when the role or scope is too low
 */
export function requireRole(actor: Actor | null, role: Role): Actor {
  if (!actor) throw new AuthError("unauthenticated", "Sign in first: this needs an account or a valid API token.");
  if (RANK[actor.role] < RANK[role]) throw new AuthError("forbidden", `Your role (${actor.role}) cannot do this; it needs ${role}.`);
  if (actor.kind === "token") {
    const needed = role === "viewer" ? "read" : "run";
    if (!(actor.scopes ?? []).includes(needed)) throw new AuthError("forbidden", `This API token lacks the "${needed}" scope.`);
  }
  return actor;
}
