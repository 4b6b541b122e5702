/**
 * Paths anyone may load without signing in (issue 19): the sign-in page, better-auth's endpoints,
 * Next.js's static build files and the icon. Everything else needs an actor once users exist.
 */

const PUBLIC_PREFIXES = ["/api/auth/", "/_next/static/", "/_next/image"];
const PUBLIC_PATHS = new Set(["/sign-in", "/icon.svg", "/favicon.ico", "/robots.txt"]);

/** True when `pathname` is served without a session. */
export function isPublicPath(pathname: string): boolean {
  return PUBLIC_PATHS.has(pathname) || PUBLIC_PREFIXES.some((p) => pathname.startsWith(p));
}

/**
 * Where to send a visitor who is not signed in: a page load (GET that accepts HTML and is not a
 * server action or RSC fetch) is redirected to the sign-in page, anything else gets 401.
 */
export function unauthenticatedResponseKind(req: { method: string; accept: string | null; isAction: boolean; isRsc: boolean }): "redirect" | "401" {
  if (req.method !== "GET" || req.isAction || req.isRsc) return "401";
  return (req.accept ?? "").includes("text/html") ? "redirect" : "401";
}

/**
 * The one-line reason of a 401 from the proxy: a presented API token was refused (the CLI prints
 * this line), or there is no session at all.
 */
export function unauthenticatedMessage(req: { hasAuthorization: boolean }): string {
  return req.hasAuthorization
    ? "The API token was refused: it is unknown, revoked or expired (send it as `Authorization: Bearer bw_…`)."
    : "Sign in first: this Benchwork server needs an account (no valid session or API token).";
}
