/** Where to go after signing in: a path on this server only (no open redirect), else "/". */
export function safeNextPath(value: string | null | undefined): string {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/";
  if (value.startsWith("/sign-in")) return "/";
  return value;
}
