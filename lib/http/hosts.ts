/**
 * The host names the server answers to. A browser sends, in `Host`, the name it resolved; a page of
 * another site that re-points its own name at this machine (DNS rebinding) therefore arrives under
 * that site's name, never under one of ours. Answering only to known names shuts that door.
 */

/** A `Host` header split: lower-case name (IPv6 in brackets, no trailing dot) and the port if given. */
export interface HostPort {
  name: string;
  port: string | null;
}

/**
 * What the server accepts.
 * - `hosts`: names a request's `Host` may carry (loopback names, `BENCHWORK_HOST`, `BENCHWORK_ALLOWED_HOSTS`).
 * - `trustedOriginNames`: names whose pages may send changes although they are not the request's
 *   `Host` (a reverse proxy in front): only the operator's `BENCHWORK_ALLOWED_HOSTS`, on any port.
 */
export interface HostPolicy {
  hosts: ReadonlySet<string>;
  trustedOriginNames: ReadonlySet<string>;
}

/** A host list from the environment that holds something other than host names. */
export class HostListError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HostListError";
  }
}

/** The names every server answers to: the loopback interface it listens on by default. */
export const LOOPBACK_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

// A DNS name (labels of letters, digits, '-' and '_': container names use '_') or an IPv4 address.
const NAME = /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*$/;
const IPV6 = /^[0-9a-f:.]*:[0-9a-f:.]*$/;

/** A bare name as stored in the policy, or null when `raw` is not a host name or IP address. */
function normalizeName(raw: string): string | null {
  let s = raw.trim().toLowerCase();
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
  if (IPV6.test(s)) return `[${s}]`;
  if (s.endsWith(".")) s = s.slice(0, -1);
  return NAME.test(s) ? s : null;
}

/**
 * Splits a `Host` header value (`name`, `name:port`, `[ipv6]:port`).
 * @returns the normalized name and port, or null when the value is not a host
 */
export function parseHostHeader(value: string): HostPort | null {
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(value.trim());
  if (!m) return null;
  if (m[2] !== undefined && Number(m[2]) > 65535) return null;
  const name = normalizeName(m[1]);
  return name ? { name, port: m[2] ?? null } : null;
}

/**
 * The policy from the two environment values (the caller reads the environment).
 * @param o.allowedHosts `BENCHWORK_ALLOWED_HOSTS`: comma-separated names or IP addresses, no port
 * @param o.listenHost `BENCHWORK_HOST`: the address `npm start` listens on, when set
 * @throws HostListError naming the variable (and the entry's position) that is not a host name
 */
export function hostPolicy(o: { allowedHosts?: string; listenHost?: string }): HostPolicy {
  const hosts = new Set(LOOPBACK_HOSTS);
  const trusted = new Set<string>();
  (o.allowedHosts ?? "").split(",").forEach((entry, i) => {
    if (!entry.trim()) return;
    const name = normalizeName(entry);
    if (!name)
      throw new HostListError(
        `BENCHWORK_ALLOWED_HOSTS: entry ${i + 1} "${entry.trim()}" is not a host name or IP address (write names without scheme, port or path, separated by commas; any port is accepted).`,
      );
    hosts.add(name);
    trusted.add(name);
  });
  if (o.listenHost?.trim()) {
    const name = normalizeName(o.listenHost);
    if (!name) throw new HostListError(`BENCHWORK_HOST: "${o.listenHost.trim()}" is not a host name or IP address.`);
    hosts.add(name);
  }
  return { hosts, trustedOriginNames: trusted };
}
