/**
 * Runs before every route, static file and server action (no matcher on purpose: a matcher that
 * skips a path also skips the server actions posted to it).
 * 1. Refuses requests under a foreign Host (DNS rebinding) and cross-site writes (lib/http/request-guard).
 * 2. Once users exist (or beyond loopback), lets only signed-in requests (session cookie or API
 *    token) reach anything but the sign-in page and static files (issue 19): a page load goes to
 *    /sign-in, anything else gets 401. Roles are checked later, in each action and route
 *    (server/auth/guard.ts).
 *    While the store cannot be reached, a page load gets a 503 page saying so and anything else a
 *    one-line 503 (issue 20).
 * 3. Gives every response the security headers, with a fresh CSP nonce that Next.js reads from the
 *    request's Content-Security-Policy and puts on its own scripts.
 */
import { NextResponse, type NextRequest } from "next/server";
import { guardRequest } from "@/lib/http/request-guard";
import { securityHeaders } from "@/lib/http/security-headers";
import { hostPolicyFromEnv } from "@/server/host-policy";
import { isPublicPath, unauthenticatedMessage, unauthenticatedResponseKind } from "@/lib/auth/public-paths";
import { actorFromRequest, type Actor } from "@/server/auth/actor-core";
import { isStoreUnreachable, unreachableReason } from "@/lib/store/unreachable";
import { storeUnreachableHtml } from "@/lib/store/unreachable-page";
import { OutageLines } from "@/lib/store/outage-lines";

function plainText(status: number, text: string, headers: Record<string, string>): NextResponse {
  return new NextResponse(`${text}\n`, { status, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" } });
}

/** The 503's text while the store cannot be reached (no store name: the server's log has it). */
export const STORE_UNREACHABLE_TEXT = "Benchwork cannot reach its database right now (the server's log names the store and the reason); try again shortly.";

/** The log's lines about the store's outages: one per 10 s while it lasts, not one per request, and one when it ends. */
const outageLines = new OutageLines(10_000);

/** The request's headers with the nonce CSP that Next.js reads to put the nonce on its scripts. */
function withCsp(requestHeaders: Headers, headers: Record<string, string>): Headers {
  const forwarded = new Headers(requestHeaders);
  forwarded.set("Content-Security-Policy", headers["Content-Security-Policy"]);
  return forwarded;
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

  const kind = () =>
    unauthenticatedResponseKind({
      method: request.method,
      accept: request.headers.get("accept"),
      isAction: request.headers.has("next-action"),
      isRsc: request.headers.has("rsc"),
    });
  let actor: Actor | null = null;
  if (!isPublicPath(request.nextUrl.pathname)) {
    try {
      actor = await actorFromRequest(request);
      const back = outageLines.reachable(Date.now());
      if (back) console.error(back);
    } catch (e) {
      if (!isStoreUnreachable(e)) throw e;
      const line = outageLines.unreachable(unreachableReason(e), Date.now());
      if (line) console.error(line);
      // Who asks is unknown, so nothing of the page is served or rendered: a page load gets a page
      // saying so (lib/store/unreachable-page.ts says why not a rendered one), anything else one line.
      if (kind() === "redirect")
        return new NextResponse(storeUnreachableHtml(), {
          status: 503,
          headers: { ...headers, "Content-Type": "text/html; charset=utf-8", "Retry-After": "10" },
        });
      return plainText(503, STORE_UNREACHABLE_TEXT, headers);
    }
  }
  if (!isPublicPath(request.nextUrl.pathname) && !actor) {
    if (kind() === "401") return plainText(401, unauthenticatedMessage({ hasAuthorization: request.headers.has("authorization") }), headers);
    const to = new URL("/sign-in", request.nextUrl);
    to.searchParams.set("next", request.nextUrl.pathname + request.nextUrl.search);
    const response = NextResponse.redirect(to, 307);
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  }

  const response = NextResponse.next({ request: { headers: withCsp(request.headers, headers) } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
