/**
 * Where `npm start` / `npm run dev` listen: 127.0.0.1 unless BENCHWORK_HOST says otherwise. The
 * app has no sign-in yet, so anything beyond the loopback interface is the operator's explicit
 * choice, and is announced loudly.
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
        `!! WARNING: BENCHWORK_HOST=${host}: Benchwork listens beyond this machine.`,
        "!! There is no sign-in yet (accounts come later): anyone who can reach this address",
        "!! can read and change every system, case, dataset and bench, and start model calls",
        "!! paid with the keys in this server's environment. Expose it only on a network you trust.",
        "!! Requests must name an allowed host: list the names and addresses you open it under",
        "!! in BENCHWORK_ALLOWED_HOSTS (comma-separated).",
        "!".repeat(78),
        "",
      ].join("\n");
  return { args: [dev ? "dev" : "start", "--hostname", host, "--port", port], warning };
}
