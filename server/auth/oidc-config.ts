/**
 * Optional OpenID Connect sign-in: one generic provider (Google Workspace, Okta, Keycloak, GitHub's
 * OIDC app …) from BENCHWORK_OIDC_ISSUER, BENCHWORK_OIDC_CLIENT_ID, BENCHWORK_OIDC_CLIENT_SECRET
 * (and optionally BENCHWORK_OIDC_NAME, the button's label).
 */

/** better-auth's provider id; the callback is `<BENCHWORK_URL>/api/auth/callback/oidc`. */
export const OIDC_PROVIDER_ID = "oidc";

/** The provider setting, or null when OIDC is off. */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Label on the sign-in button. */
  name: string;
}

/**
 * Reads the OIDC variables.
 * @returns null when none is set
 * @throws when some but not all of issuer, client id and secret are set (naming the missing ones)
 */
export function oidcConfigFromEnv(env: Record<string, string | undefined>): OidcConfig | null {
  const issuer = env.BENCHWORK_OIDC_ISSUER?.trim() ?? "";
  const clientId = env.BENCHWORK_OIDC_CLIENT_ID?.trim() ?? "";
  const clientSecret = env.BENCHWORK_OIDC_CLIENT_SECRET?.trim() ?? "";
  if (!issuer && !clientId && !clientSecret) return null;
  const missing = [
    ["BENCHWORK_OIDC_ISSUER", issuer],
    ["BENCHWORK_OIDC_CLIENT_ID", clientId],
    ["BENCHWORK_OIDC_CLIENT_SECRET", clientSecret],
  ]
    .filter(([, v]) => !v)
    .map(([k]) => k);
  if (missing.length) throw new Error(`OpenID Connect is half configured: set ${missing.join(" and ")} too, or unset all three.`);
  return { issuer, clientId, clientSecret, name: env.BENCHWORK_OIDC_NAME?.trim() || "single sign-on" };
}
