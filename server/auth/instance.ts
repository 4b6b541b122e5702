/**
 * The server's one better-auth instance (on the shared database connection), with the Next.js
 * cookie plugin so sign-in/out from server code sets cookies. Kept on globalThis: proxy.ts, the
 * route handlers and the pages are separate bundles in one process.
 */
import { nextCookies } from "better-auth/next-js";
import { databasePath, getDb } from "@/db/client";
import { createAuth, type Auth } from "./auth";
import { authSecret } from "./secret";

const globalForAuth = globalThis as unknown as { benchworkAuth?: Auth };

/** The instance, built on first use from the environment. */
export function getAuth(): Auth {
  if (!globalForAuth.benchworkAuth) {
    const env = process.env;
    globalForAuth.benchworkAuth = createAuth({ db: getDb(), secret: authSecret(env, databasePath()), env, plugins: [nextCookies()] });
  }
  return globalForAuth.benchworkAuth;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** True when the server listens on the loopback interface only (BENCHWORK_HOST unset or loopback). */
export function listensOnLoopback(env: Record<string, string | undefined> = process.env): boolean {
  return LOOPBACK.has((env.BENCHWORK_HOST?.trim() || "127.0.0.1").toLowerCase());
}

/**
 * True when single-user mode (no users: whoever reaches the server is admin) is safe: only this
 * machine can reach it. It listens on loopback, answers to no other host name
 * (BENCHWORK_ALLOWED_HOSTS would be a reverse proxy's public name) and has no public address
 * (BENCHWORK_URL beyond loopback). Kept in step with scripts/listen.mjs `exposure`.
 */
export function singleUserModeAllowed(env: Record<string, string | undefined> = process.env): boolean {
  if (!listensOnLoopback(env) || env.BENCHWORK_ALLOWED_HOSTS?.trim()) return false;
  const url = env.BENCHWORK_URL?.trim();
  if (!url) return true;
  try {
    return LOOPBACK.has(new URL(url).hostname.toLowerCase());
  } catch {
    return false;
  }
}
