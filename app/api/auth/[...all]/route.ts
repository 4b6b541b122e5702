/**
 * better-auth's own endpoints (sign-in, sign-out, session, password change, OIDC callback). Not
 * wrapped by guardedRoute: they are how one gets a session, and each checks its own session
 * (server/auth/guard-coverage.test.ts lists this file as the one exception). Only the endpoints
 * the pages use are served (lib/auth/auth-endpoints.ts): the admin plugin's would bypass the Users
 * page's rules and the activity log. Sign-in is rate-limited.
 */
import { isServedAuthEndpoint } from "@/lib/auth/auth-endpoints";
import { getAuth } from "@/server/auth/instance";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** better-auth's handler for a served endpoint, else the 404 of an unknown path. */
function handle(request: Request): Promise<Response> | Response {
  if (!isServedAuthEndpoint(request.method, new URL(request.url).pathname)) return Response.json({ error: "Not found." }, { status: 404 });
  return getAuth().handler(request);
}

export async function GET(request: Request): Promise<Response> {
  return handle(request);
}

export async function POST(request: Request): Promise<Response> {
  return handle(request);
}
