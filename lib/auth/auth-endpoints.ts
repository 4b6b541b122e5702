/**
 * Which of better-auth's HTTP endpoints the app serves under /api/auth (issue 19). better-auth and
 * its admin plugin bring many more (impersonate a user, set a role, create users, list sessions
 * with their tokens, update the profile …); each checks its own session, but they would bypass the
 * Users page's rules (never the last admin) and the activity log, and impersonation would record
 * another user as the author. Users are managed through Benchwork's own guarded actions instead,
 * which call better-auth on the server (`auth.api.*`, not over HTTP).
 */

/** The endpoints the pages use, by method: paths below /api/auth, matched exactly as received. */
const SERVED: Record<string, ReadonlySet<string>> = {
  GET: new Set(["/get-session", "/callback/oidc", "/error", "/ok"]),
  // An OIDC provider may post its answer (response_mode=form_post).
  POST: new Set(["/sign-in/email", "/sign-in/social", "/sign-out", "/change-password", "/callback/oidc"]),
};

/** The base path of better-auth's endpoints (server/auth/auth.ts `basePath`). */
export const AUTH_BASE_PATH = "/api/auth";

/**
 * True when the app serves this better-auth endpoint.
 * @param method the HTTP method (HEAD counts as GET)
 * @param pathname the request's path as received (still percent-encoded), e.g. `/api/auth/sign-in/email`
 */
export function isServedAuthEndpoint(method: string, pathname: string): boolean {
  if (!pathname.startsWith(`${AUTH_BASE_PATH}/`)) return false;
  const m = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase();
  return SERVED[m]?.has(pathname.slice(AUTH_BASE_PATH.length)) ?? false;
}
