/**
 * Reads the source of a server-actions file or a route handler and lists what it exports without
 * the role wrapper (issue 19: every action and route checks the role on the server through one
 * wrapper, server/auth/guard.ts). Text-based on purpose: it sees exactly what a reviewer sees.
 */

/** Route segment settings Next.js reads from a route file; not handlers. */
const ROUTE_CONFIG = new Set(["dynamic", "runtime", "revalidate", "fetchCache", "preferredRegion", "maxDuration", "dynamicParams"]);

/** One export of a file and the role its wrapper names (null = not wrapped). */
export interface ExportGuard {
  name: string;
  role: string | null;
}

/**
 * Every runtime export of `source` with the role of its wrapper.
 * @param kind "action" expects `export const X = guardedAction("role", …)`; "route" expects
 *   `export const GET = guardedRoute("role", …)` or the HTTP API's `apiRoute({ role: "role", … }, …)`
 *   (server/api/handler.ts, which calls the same `requireRole`); route settings such as `dynamic` are skipped
 */
export function exportGuards(source: string, kind: "action" | "route"): ExportGuard[] {
  const wrapper = kind === "action" ? "guardedAction\\(\\s*" : "(?:guardedRoute\\(\\s*|apiRoute(?:<[^(]*>)?\\(\\s*\\{\\s*role:\\s*)";
  const out: ExportGuard[] = [];
  const lines = source.split("\n");
  for (const [i, line] of lines.entries()) {
    if (!line.startsWith("export ")) continue;
    if (/^export (type|interface) /.test(line)) continue;
    // The wrapper's arguments may be on the next lines (prettier breaks long signatures).
    const head = lines.slice(i, i + 3).join("\n");
    const guarded = head.match(new RegExp(`^export const (\\w+)\\s*=\\s*${wrapper}"(admin|editor|viewer)"`));
    if (guarded) {
      out.push({ name: guarded[1], role: guarded[2] });
      continue;
    }
    const name = line.match(/^export (?:default )?(?:async )?(?:function\*? |const |let |var |class )?\s*(\w+)/)?.[1] ?? line.trim();
    if (kind === "route" && ROUTE_CONFIG.has(name) && /^export const \w+ = [^(]*;?$/.test(line)) continue;
    // `export { a, b }` and `export *` re-export without a visible wrapper: refused as well.
    out.push({ name, role: null });
  }
  return out;
}
