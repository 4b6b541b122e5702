/** A base no real request has: only used to resolve a path the way a browser would. */
const BASE = "http://benchwork.invalid";

/**
 * Where to go after signing in: a path on this server only (no open redirect), else "/".
 * A browser drops tabs and line breaks from a URL and reads `\` as `/`, so `/\t/evil.example`
 * would leave the site: values with control characters, spaces or backslashes are refused, and the
 * rest is resolved as a browser would and kept only when it stays on this origin.
 * @returns the normalised path with its query and fragment, or "/"
 */
export function safeNextPath(value: string | null | undefined): string {
  // Control characters (U+0000–U+001F, U+007F), spaces and backslashes: refused outright.
  if (!value || !value.startsWith("/") || [...value].some((ch) => ch <= " " || ch === "\u007f" || ch === "\\")) return "/";
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return "/";
  }
  if (url.origin !== BASE || url.pathname.startsWith("//")) return "/";
  if (url.pathname === "/sign-in" || url.pathname.startsWith("/sign-in/")) return "/";
  return url.pathname + url.search + url.hash;
}
