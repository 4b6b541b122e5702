/**
 * The one wrapper every server action (app/**\/actions.ts) and route handler (app/api/**\/route.ts)
 * goes through (issue 19): it resolves the actor on the server and calls `requireRole` before the
 * action runs. server/auth/guard-coverage.test.ts fails when an export is not wrapped.
 */
import type { ActionResult } from "@/lib/shell/result";
import { actorFromRequest, AuthError, currentActor, requireRole, type Actor, type Role } from "./actor";

/**
 * Wraps a server action: refused with `{ ok: false, error: { code: "unauthenticated" | "forbidden" } }`
 * unless the signed-in actor has at least `role`.
 * @example export const saveCaseAction = guardedAction("editor", async (systemId: string, input: unknown) => …);
 */
export function guardedAction<A extends unknown[], T>(role: Role, action: (...args: A) => Promise<ActionResult<T>>): (...args: A) => Promise<ActionResult<T>> {
  return async (...args: A) => {
    try {
      requireRole(await currentActor(), role);
    } catch (e) {
      if (e instanceof AuthError) return { ok: false, error: { code: e.code, message: e.message } };
      throw e;
    }
    return action(...args);
  };
}

/**
 * Wraps a route handler: 401 (no valid session or token) or 403 (role or scope too low), as JSON
 * `{ error }`, unless the actor (token or session) has at least `role`. The handler gets the actor.
 */
export function guardedRoute<C>(
  role: Role,
  handler: (request: Request, context: C, actor: Actor) => Promise<Response>,
): (request: Request, context: C) => Promise<Response> {
  return async (request: Request, context: C) => {
    let actor: Actor;
    try {
      actor = requireRole(await actorFromRequest(request), role);
    } catch (e) {
      if (e instanceof AuthError) return Response.json({ error: e.message, code: e.code }, { status: e.code === "unauthenticated" ? 401 : 403 });
      throw e;
    }
    return handler(request, context, actor);
  };
}
