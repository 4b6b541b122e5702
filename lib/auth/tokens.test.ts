import { describe, expect, it } from "vitest";
import { bearerToken, formatToken, hashToken, tokenDisplayPrefix, tokenRefusal } from "./tokens";

describe("API token secrets", () => {
  const token = formatToken(new Uint8Array(32).fill(7));

  it("are bw_ + 43 base64url characters (256 bits)", () => {
    expect(token).toBe("bw_BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc");
    expect(() => formatToken(new Uint8Array(16))).toThrow("32 random bytes");
  });

  it("are stored as their SHA-256, never in clear", () => {
    expect(hashToken(token)).toBe("b7ade71f1b590f46f2ba7b2111f41a77acddcbb54eb04ca7a78161f6d6a85525");
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(token)).not.toContain(token.slice(3, 20));
    expect(hashToken(token)).not.toBe(hashToken(token + "x"));
    expect(tokenDisplayPrefix(token)).toBe("bw_BwcHBw");
  });

  it("are read from a Bearer header only when they look like ours", () => {
    expect(bearerToken(`Bearer ${token}`)).toBe(token);
    expect(bearerToken(`bearer ${token} `)).toBe(token);
    expect(bearerToken("Bearer abc")).toBeNull();
    expect(bearerToken("Basic Zm9vOmJhcg==")).toBeNull();
    expect(bearerToken(null)).toBeNull();
  });
});

describe("tokenRefusal", () => {
  const now = 1_700_000_000_000;
  it("accepts a live token, with or without expiry", () => {
    expect(tokenRefusal({ expiresAt: null, revokedAt: null }, now)).toBeNull();
    expect(tokenRefusal({ expiresAt: now + 1, revokedAt: null }, now)).toBeNull();
  });
  it("refuses an expired token from its expiry instant on, and a revoked one", () => {
    expect(tokenRefusal({ expiresAt: now, revokedAt: null }, now)).toBe("expired");
    expect(tokenRefusal({ expiresAt: now - 1, revokedAt: null }, now)).toBe("expired");
    expect(tokenRefusal({ expiresAt: null, revokedAt: now - 5 }, now)).toBe("revoked");
  });
});
