/**
 * better-auth's own endpoints (sign-in, sign-out, session, OIDC callback, admin plugin). Not wrapped
 * by guardedRoute: they are how one gets a session, and each checks its own session and role
 * (server/auth/guard-coverage.test.ts lists this file as the one exception). Sign-in is rate-limited.
 */
import { getAuth } from "@/server/auth/instance";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request): Promise<Response> {
  return getAuth().handler(request);
}

export async function POST(request: Request): Promise<Response> {
  return getAuth().handler(request);
}
