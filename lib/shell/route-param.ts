/**
 * Route parameters of pages arrive percent-encoded (Next.js decodes them for route handlers but
 * not for pages, vercel/next.js#64952), so a page decodes its own; a malformed sequence is kept
 * as written instead of throwing (the lookup then simply finds nothing: 404).
 */
export function decodeRouteParam(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
