import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, securityHeaders } from "./security-headers";

const NONCE = "AbC+/09=";

describe("contentSecurityPolicy", () => {
  it("allows scripts only by this response's nonce (and what they load), and forbids framing, plugins and base changes", () => {
    const csp = contentSecurityPolicy(NONCE, { dev: false });
    const d = Object.fromEntries(csp.split("; ").map((x) => [x.split(" ")[0], x.split(" ").slice(1).join(" ")]));
    expect(d["script-src"]).toBe(`'self' 'nonce-${NONCE}' 'strict-dynamic'`);
    expect(d["default-src"]).toBe("'self'");
    expect(d["connect-src"]).toBe("'self'");
    expect(d["object-src"]).toBe("'none'");
    expect(d["base-uri"]).toBe("'none'");
    expect(d["form-action"]).toBe("'self'");
    expect(d["frame-ancestors"]).toBe("'none'");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).not.toContain("upgrade-insecure-requests");
  });

  it("allows eval in development only (React's dev tooling needs it)", () => {
    expect(contentSecurityPolicy(NONCE, { dev: true })).toContain(`script-src 'self' 'nonce-${NONCE}' 'strict-dynamic' 'unsafe-eval'`);
  });

  it("refuses a nonce that could break out of the header", () => {
    expect(() => contentSecurityPolicy("x'; script-src *", { dev: false })).toThrow("not a base64 nonce");
    expect(() => contentSecurityPolicy("", { dev: false })).toThrow("not a base64 nonce");
  });
});

describe("securityHeaders", () => {
  it("adds the CSP, no framing, nosniff, a same-origin referrer policy and resource policy", () => {
    expect(securityHeaders(NONCE, { dev: false })).toEqual({
      "Content-Security-Policy": contentSecurityPolicy(NONCE, { dev: false }),
      "X-Frame-Options": "DENY",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "same-origin",
      "Cross-Origin-Resource-Policy": "same-origin",
    });
  });
});
