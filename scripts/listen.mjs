/**
 * Where `npm start` / `npm run dev` listen: 127.0.0.1 unless BENCHWORK_HOST says otherwise. Beyond
 * the loopback interface the server starts only with authentication configured (issue 19:
 * BENCHWORK_AUTH_SECRET and at least one user), and says what it exposes.
 */

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/**
 * The `next` command line and the warning to print before it.
 * @param {{ dev: boolean, env: Record<string, string | undefined> }} o `env`: BENCHWORK_HOST, PORT
 * @returns {{ args: string[], warning: string | null }} args after `next`; warning null on loopback
 * @throws {Error} when PORT is not a port number (1–65535)
 */
export function nextServerCommand({ dev, env }) {
  const port = env.PORT?.trim() || "3000";
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) throw new Error(`PORT=${JSON.stringify(port)} is not a port number (1–65535).`);
  const host = env.BENCHWORK_HOST?.trim() || "127.0.0.1";
  const warning = LOOPBACK.has(host.toLowerCase())
    ? null
    : [
        "",
        "!".repeat(78),
        `!! NOTE: BENCHWORK_HOST=${host}: Benchwork listens beyond this machine;`,
        "!! every page, action and route requires sign-in. Serve it over HTTPS (a reverse proxy,",
        "!! with BENCHWORK_URL=https://…) so passwords and session cookies do not cross in clear.",
        "!! Requests must name an allowed host: list the names and addresses you open it under",
        "!! in BENCHWORK_ALLOWED_HOSTS (comma-separated).",
        "!".repeat(78),
        "",
      ].join("\n");
  return { args: [dev ? "dev" : "start", "--hostname", host, "--port", port], warning };
}

/** Shortest BENCHWORK_AUTH_SECRET accepted (server/auth/secret.ts says the same). */
const MIN_SECRET_LENGTH = 32;

/** True when `url` is an http(s) URL on a loopback name (an unparsable one counts as not). */
function isLoopbackUrl(url) {
  try {
    return LOOPBACK.has(new URL(url).hostname.toLowerCase());
  } catch {
    return false;
  }
}

/**
 * How the server can be reached beyond this machine, as the words after "refusing to" and the
 * variable to unset, or null when only from here: a BENCHWORK_HOST that is not loopback, host
 * names it answers to (BENCHWORK_ALLOWED_HOSTS: a reverse proxy in front of 127.0.0.1), or a public
 * BENCHWORK_URL. Kept in step with server/auth/instance.ts `singleUserModeAllowed`.
 * @param {Record<string, string | undefined>} env
 * @returns {{ what: string, variable: string } | null}
 */
export function exposure(env) {
  const host = env.BENCHWORK_HOST?.trim() || "127.0.0.1";
  if (!LOOPBACK.has(host.toLowerCase())) return { what: `listen on ${host}`, variable: "BENCHWORK_HOST" };
  const allowed = env.BENCHWORK_ALLOWED_HOSTS?.trim();
  if (allowed) return { what: `answer to ${allowed} (BENCHWORK_ALLOWED_HOSTS)`, variable: "BENCHWORK_ALLOWED_HOSTS" };
  const url = env.BENCHWORK_URL?.trim();
  if (url && !isLoopbackUrl(url)) return { what: `serve ${url} (BENCHWORK_URL)`, variable: "BENCHWORK_URL" };
  return null;
}

/**
 * Why the server must not start, in one line, or null when it may. Reachable beyond this machine
 * (see {@link exposure}) it needs BENCHWORK_AUTH_SECRET (32+ characters) and at least one user;
 * reachable only from here it always may (with no user it runs in single-user mode).
 * @param {{ env: Record<string, string | undefined>, userCount: number }} o
 * @returns {string | null}
 */
export function exposureRefusal({ env, userCount }) {
  const exposed = exposure(env);
  if (!exposed) return null;
  const secret = env.BENCHWORK_AUTH_SECRET?.trim() ?? "";
  if (secret.length < MIN_SECRET_LENGTH)
    return `refusing to ${exposed.what} without authentication: set BENCHWORK_AUTH_SECRET (32+ characters, e.g. \`openssl rand -hex 32\`) and add a user with \`npx benchwork user add --admin EMAIL\`, or unset ${exposed.variable} to stay on 127.0.0.1.`;
  if (userCount === 0)
    return `refusing to ${exposed.what} with no user yet: add one with \`npx benchwork user add --admin EMAIL\` (same BENCHWORK_DB), or unset ${exposed.variable} to stay on 127.0.0.1.`;
  return null;
}
