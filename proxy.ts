/**
 * Runs before every route, static file and server action (no matcher on purpose: a matcher that
 * skips a path also skips the server actions posted to it).
 * 1. Refuses requests under a foreign Host (DNS rebinding) and cross-site writes (lib/http/request-guard).
 * 2. Once users exist (or beyond loopback), lets only signed-in requests (session cookie or API
 *    token) reach anything but the sign-in page and static files (issue 19): a page load goes to
 *    /sign-in, anything else gets 401. Roles are checked later, in each action and route
 *    (server/auth/guard.ts).
 * 3. Gives every response the security headers, with a fresh CSP nonce that Next.js reads from the
 *    request's Content-Security-Policy and puts on its own scripts.
 */
import { NextResponse, type NextRequest } from "next/server";
import { guardRequest } from "@/lib/http/request-guard";
import { securityHeaders } from "@/lib/http/security-headers";
import { hostPolicyFromEnv } from "@/server/host-policy";
import { isPublicPath, unauthenticatedMessage, unauthenticatedResponseKind } from "@/lib/auth/public-paths";
import { actorFromRequest } from "@/server/auth/actor-core";

function plainText(status: number, text: string, headers: Record<string, string>): NextResponse {
  return new NextResponse(`${text}\n`, { status, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" } });
}

/**
 * The Next.js proxy: a plain-text refusal (400/403/421, or 500 for a bad allow-list) with the
 * security headers, or the request passed on with the nonce CSP in its headers and the response's.
 */
export async function proxy(request: NextRequest): Promise<NextResponse> {
  const headers = securityHeaders(Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64"), {
    dev: process.env.NODE_ENV === "development",
  });
  let policy;
  try {
    policy = hostPolicyFromEnv();
  } catch (e) {
    // Fail closed: a mistyped allow-list must not open the server.
    return plainText(500, (e as Error).message, headers);
  }
  const verdict = guardRequest(
    {
      method: request.method,
      host: request.headers.get("host"),
      origin: request.headers.get("origin"),
      secFetchSite: request.headers.get("sec-fetch-site"),
    },
    policy,
  );
  if (!verdict.ok) return plainText(verdict.status, verdict.reason, headers);

  if (!isPublicPath(request.nextUrl.pathname) && !(await actorFromRequest(request))) {
    const kind = unauthenticatedResponseKind({
      method: request.method,
      accept: request.headers.get("accept"),
      isAction: request.headers.has("next-action"),
      isRsc: request.headers.has("rsc"),
    });
    if (kind === "401") return plainText(401, unauthenticatedMessage({ hasAuthorization: request.headers.has("authorization") }), headers);
    const to = new URL("/sign-in", request.nextUrl);
    to.searchParams.set("next", request.nextUrl.pathname + request.nextUrl.search);
    const response = NextResponse.redirect(to, 307);
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  }

  const forwarded = new Headers(request.headers);
  forwarded.set("Content-Security-Policy", headers["Content-Security-Policy"]);
  const response = NextResponse.next({ request: { headers: forwarded } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
