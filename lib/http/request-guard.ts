/**
 * The one decision every request passes before any route runs (`proxy.ts`): is it addressed to
 * this server (Host, against DNS rebinding), and, when it changes something, does it come from
 * this server's own pages (Origin, against cross-site request forgery)?
 */
import { parseHostHeader, type HostPolicy } from "./hosts";

/** The parts of a request the decision reads (header values as received, null when absent). */
export interface GuardedRequest {
  method: string;
  host: string | null;
  origin: string | null;
  /** `Sec-Fetch-Site`, which browsers set on every request (`same-origin`, `same-site`, `cross-site`, `none`). */
  secFetchSite: string | null;
}

/** Let the request through, or refuse it with this status and a short plain-text reason. */
export type GuardVerdict = { ok: true } | { ok: false; status: 400 | 403 | 421; reason: string };

/** Methods that never change state (HTTP semantics, and the app keeps to them). */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Enough of an attacker-chosen value to recognise it, no more. */
const show = (s: string) => JSON.stringify(s.length > 200 ? `${s.slice(0, 200)}…` : s);

const DEFAULT_PORT: Record<string, string> = { "http:": "80", "https:": "443" };

/**
 * True when `origin` is the server the request was sent to: same name and same port (a `Host`
 * without a port matches an origin on its scheme's default port), or a name the operator trusts.
 */
function originMatches(origin: string, host: { name: string; port: string | null }, policy: HostPolicy): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const defaultPort = DEFAULT_PORT[url.protocol];
  if (!defaultPort) return false;
  const name = parseHostHeader(url.hostname)?.name;
  if (!name) return false;
  if (policy.trustedOriginNames.has(name)) return true;
  if (name !== host.name) return false;
  return host.port === null ? url.port === "" : (url.port || defaultPort) === host.port;
}

/**
 * Decides whether a request may reach the routes.
 * - `Host` missing or malformed → 400; a name outside `policy.hosts` → 421 (Misdirected Request),
 *   for every method: a DNS-rebound page reads as well as writes.
 * - A method other than GET/HEAD/OPTIONS with an `Origin` that is not this server (see
 *   `originMatches`; `null` never is) → 403; without `Origin`, 403 when `Sec-Fetch-Site` says a
 *   browser sent it from another origin. Without either header (curl, scripts) it passes: no
 *   browser carried a user's visit there.
 * @returns `{ ok: true }`, or the status and a reason naming the refused value
 */
export function guardRequest(req: GuardedRequest, policy: HostPolicy): GuardVerdict {
  const host = req.host === null ? null : parseHostHeader(req.host);
  if (!host) return { ok: false, status: 400, reason: "The request has no valid Host header." };
  if (!policy.hosts.has(host.name))
    return {
      ok: false,
      status: 421,
      reason: `Benchwork does not answer to the host ${show(host.name)} (a page of another site may be trying to reach it through DNS rebinding). Open Benchwork at http://localhost or http://127.0.0.1 with its port, or add the name to BENCHWORK_ALLOWED_HOSTS.`,
    };
  if (SAFE_METHODS.has(req.method.toUpperCase())) return { ok: true };
  if (req.origin !== null) {
    if (originMatches(req.origin, host, policy)) return { ok: true };
    return {
      ok: false,
      status: 403,
      reason: `Cross-site request refused: Origin ${show(req.origin)} is not this server (Host ${show(req.host ?? "")}). Benchwork accepts changes only from its own pages.`,
    };
  }
  const site = req.secFetchSite?.toLowerCase();
  if (site && site !== "same-origin" && site !== "none")
    return {
      ok: false,
      status: 403,
      reason: `Cross-site request refused: the browser marked it Sec-Fetch-Site ${show(req.secFetchSite ?? "")} and sent no Origin. Benchwork accepts changes only from its own pages.`,
    };
  return { ok: true };
}
