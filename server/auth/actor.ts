/**
 * Who is acting (issue 19): the contract shared with the API branch. The session comes from
 * better-auth (server/auth/instance.ts); personal API tokens from the api_tokens table.
 */
import { headers } from "next/headers";
import { cache } from "react";
import { actorFromHeaders, type Actor } from "./actor-core";

export { actorFromRequest, requireRole, AuthError, LOCAL_ACTOR, type Actor, type Role } from "./actor-core";

/**
 * The actor of the current request (server action, page, route handler) from the session cookie.
 * Single-user mode (no users exist; only allowed on loopback) → { userId: "local", email: "local", role: "admin", kind: "local" }.
 * Null when users exist and there is no valid session. Cached per request.
 */
export const currentActor: () => Promise<Actor | null> = cache(async () => actorFromHeaders(await headers()));
