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
