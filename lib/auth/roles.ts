/**
 * Roles and token scopes (issue 19), pure: admin > editor > viewer. A token acts as its owner with
 * at most its scope: "read" allows viewer-level reads only, "run" anything the owner may do.
 */

export type Role = "admin" | "editor" | "viewer";
export type TokenScope = "read" | "run";

export const ROLES: readonly Role[] = ["admin", "editor", "viewer"];

const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2 };

/** A stored role string as a {@link Role}; anything unknown is the least privileged, viewer. */
export function parseRole(value: string | null | undefined): Role {
  return value === "admin" || value === "editor" || value === "viewer" ? value : "viewer";
}

/** True when `has` is at least `needs`. */
export function roleAtLeast(has: Role, needs: Role): boolean {
  return RANK[has] >= RANK[needs];
}

/** The token scope a check at `role` level needs: "read" for viewer-level, "run" for anything else. */
export function scopeFor(role: Role): TokenScope {
  return role === "viewer" ? "read" : "run";
}

/** The scopes a token of this kind carries (a run token may also read). */
export function scopesOf(scope: TokenScope): TokenScope[] {
  return scope === "run" ? ["read", "run"] : ["read"];
}
