/**
 * The better-auth settings that decide who an OpenID Connect sign-in becomes (issue 19). The whole
 * flow runs in e2e/accounts.spec.ts against a local provider; this pins the setting that stops an
 * unverified e-mail from taking over an existing account.
 */
import { describe, expect, it } from "vitest";
import { openMemoryDatabase } from "@/db/client";
import { createAuth } from "./auth";

const OIDC_ENV = {
  BENCHWORK_OIDC_ISSUER: "http://127.0.0.1:1/issuer",
  BENCHWORK_OIDC_CLIENT_ID: "benchwork",
  BENCHWORK_OIDC_CLIENT_SECRET: "secret-secret-secret",
};

describe("createAuth with OpenID Connect", () => {
  it("links a provider sign-in to an existing user only when the provider says the e-mail is verified (the provider is not trusted blindly)", () => {
    const db = openMemoryDatabase();
    try {
      const linking: { enabled?: boolean; trustedProviders?: unknown } | undefined = createAuth({ db, secret: "s".repeat(32), env: OIDC_ENV }).options.account
        ?.accountLinking;
      expect(linking?.enabled).toBe(true);
      // better-auth links a trusted provider's sign-in even with email_verified false: an identity
      // provider where anyone may register any address would then sign them in as that user.
      expect(linking?.trustedProviders ?? []).toEqual([]);
    } finally {
      db.$client.close();
    }
  });
});
