import { describe, expect, it } from "vitest";
import { isServedAuthEndpoint } from "./auth-endpoints";

describe("isServedAuthEndpoint", () => {
  it("serves sign-in, the session, sign-out, the password change and the OIDC callback", () => {
    expect(isServedAuthEndpoint("POST", "/api/auth/sign-in/email")).toBe(true);
    expect(isServedAuthEndpoint("POST", "/api/auth/sign-in/social")).toBe(true);
    expect(isServedAuthEndpoint("GET", "/api/auth/get-session")).toBe(true);
    expect(isServedAuthEndpoint("POST", "/api/auth/sign-out")).toBe(true);
    expect(isServedAuthEndpoint("POST", "/api/auth/change-password")).toBe(true);
    expect(isServedAuthEndpoint("GET", "/api/auth/callback/oidc")).toBe(true);
    expect(isServedAuthEndpoint("post", "/api/auth/callback/oidc")).toBe(true);
  });
  it("serves nothing else: the admin plugin, session listings, profile changes, other spellings", () => {
    for (const p of [
      "/admin/impersonate-user",
      "/admin/set-role",
      "/admin/create-user",
      "/list-sessions",
      "/update-user",
      "/unlink-account",
      "/revoke-sessions",
    ])
      expect(isServedAuthEndpoint("POST", `/api/auth${p}`), p).toBe(false);
    expect(isServedAuthEndpoint("GET", "/api/auth/admin/list-users")).toBe(false);
    expect(isServedAuthEndpoint("POST", "/api/auth/sign-in/%65mail")).toBe(false);
    expect(isServedAuthEndpoint("POST", "/api/auth/admin%2Fset-role")).toBe(false);
    expect(isServedAuthEndpoint("GET", "/api/auth/sign-in/email")).toBe(false);
    expect(isServedAuthEndpoint("POST", "/api/authx/sign-in/email")).toBe(false);
    expect(isServedAuthEndpoint("DELETE", "/api/auth/sign-out")).toBe(false);
  });
});
