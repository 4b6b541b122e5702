/**
 * The better-auth instance (issue 19): email + password, sessions in the store (SQLite or
 * PostgreSQL) through the drizzle adapter, roles from the admin plugin, optional OpenID Connect
 * (server/auth/oidc-config.ts).
 * Benchwork never hashes a password or mints a session itself.
 *
 * Origin and Host are checked before any route by proxy.ts (lib/http/request-guard), so the base
 * URL follows the request's Host (proxy.ts already refused foreign ones) unless BENCHWORK_URL
 * names the public address (needed behind a reverse proxy and for OIDC callbacks).
 */
import { betterAuth, type BetterAuthPlugin } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { admin } from "better-auth/plugins/admin";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import type { Db } from "@/db/client";
import { isPostgres } from "@/db/dialect";
import { authAccounts, authVerifications, sessions, users } from "@/db/schema";
import { accessControl } from "./roles";
import { oidcConfigFromEnv, OIDC_PROVIDER_ID } from "./oidc-config";

/** How long a session lives without use, in seconds (7 days); each day of use extends it. */
export const SESSION_EXPIRES_S = 7 * 24 * 3600;

/** Sign-in attempts allowed per window (brute force), and the window in seconds. */
export const SIGN_IN_LIMIT = { window: 60, max: 10 };

/** What {@link createAuth} needs from outside (env and database are parameters so the CLI and tests can pass their own). */
export interface AuthSetup {
  db: Db;
  secret: string;
  env: Record<string, string | undefined>;
  /** Extra plugins (the Next.js cookie plugin, from server/auth/instance.ts). */
  plugins?: BetterAuthPlugin[];
}

/**
 * Builds a better-auth instance on the Benchwork database.
 * @throws when the OIDC variables are half set (see oidcConfigFromEnv)
 */
export function createAuth({ db, secret, env, plugins = [] }: AuthSetup) {
  const publicUrl = env.BENCHWORK_URL?.trim();
  const oidc = oidcConfigFromEnv(env);
  return betterAuth({
    appName: "Benchwork",
    secret,
    baseURL: publicUrl ? publicUrl : { allowedHosts: ["*"], protocol: "http", fallback: `http://localhost:${env.PORT?.trim() || "3000"}` },
    basePath: "/api/auth",
    database: drizzleAdapter(db, {
      // The same table objects on both stores: a PostgreSQL store maps its ms times and booleans to
      // what they declare (db/pg/store.ts); the provider picks the dialect's SQL (ILIKE, JSON, arrays).
      provider: isPostgres(db) ? "pg" : "sqlite",
      schema: { user: users, session: sessions, account: authAccounts, verification: authVerifications },
    }),
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 12, maxPasswordLength: 256 },
    session: { expiresIn: SESSION_EXPIRES_S, updateAge: 24 * 3600 },
    // An OIDC sign-in links to the user an admin added under that e-mail only when the provider says
    // it verified the address (email_verified): the provider is not "trusted", since better-auth
    // would then link even an unverified address, and a provider where anyone may register any
    // address would sign them in as that user (the admin included). Local e-mails are never verified
    // by mail here, but nobody can sign themselves up (only admins add users), so no stranger can
    // plant an account under someone's e-mail for the link to join.
    account: { accountLinking: { enabled: true, requireLocalEmailVerified: false } },
    rateLimit: {
      enabled: true,
      storage: "memory",
      customRules: { "/sign-in/email": SIGN_IN_LIMIT, "/sign-in/social": SIGN_IN_LIMIT },
    },
    advanced: {
      // Next.js passes a client's own X-Forwarded-For through, so it cannot key the limit: without a
      // trusted proxy header every client shares one bucket per path (a brute force slows everyone).
      ipAddress: {
        ipAddressHeaders: env.BENCHWORK_CLIENT_IP_HEADER?.trim() ? [env.BENCHWORK_CLIENT_IP_HEADER.trim().toLowerCase()] : ["x-benchwork-no-client-ip"],
      },
      useSecureCookies: publicUrl?.startsWith("https://") ?? false,
      database: { generateId: () => crypto.randomUUID() },
    },
    telemetry: { enabled: false },
    plugins: [
      admin({ ...accessControl, defaultRole: "viewer", adminRoles: ["admin"] }),
      ...(oidc
        ? [
            genericOAuth({
              config: [
                {
                  providerId: OIDC_PROVIDER_ID,
                  discoveryUrl: `${oidc.issuer.replace(/\/$/, "")}/.well-known/openid-configuration`,
                  clientId: oidc.clientId,
                  clientSecret: oidc.clientSecret,
                  scopes: ["openid", "email", "profile"],
                  pkce: true,
                  // Only people an admin added may sign in: OIDC proves the e-mail, the Users page grants access.
                  disableSignUp: true,
                },
              ],
            }),
          ]
        : []),
      ...plugins,
    ],
  });
}

/** The instance type (for the Next.js singleton). */
export type Auth = ReturnType<typeof createAuth>;
