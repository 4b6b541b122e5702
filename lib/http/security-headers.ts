/**
 * Response headers that confine what a page of the app may load and who may frame it. Scripts run
 * only with the response's nonce (Next.js puts it on its own scripts when it finds it in the
 * request's Content-Security-Policy) or when loaded by such a script ('strict-dynamic': the
 * router's chunks). Styles allow inline ones: React renders `style` attributes and Radix injects
 * `<style>` elements without a nonce, and a style cannot run code.
 */

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The Content-Security-Policy of a response.
 * @param nonce fresh per response, base64
 * @param o.dev `next dev`: React's development build needs eval
 * @throws Error when `nonce` is not base64 (it goes into the header verbatim)
 */
export function contentSecurityPolicy(nonce: string, o: { dev: boolean }): string {
  if (!BASE64.test(nonce)) throw new Error(`${JSON.stringify(nonce)} is not a base64 nonce.`);
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${o.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * Every security header of a response (pages, route handlers, static files, refusals).
 * Clickjacking: `frame-ancestors 'none'` plus `X-Frame-Options: DENY` for browsers without CSP 2.
 * @throws Error when `nonce` is not base64
 */
export function securityHeaders(nonce: string, o: { dev: boolean }): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(nonce, o),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
  };
}
