/**
 * The host policy (lib/http/hosts) from the environment: `BENCHWORK_ALLOWED_HOSTS` and
 * `BENCHWORK_HOST`. Read per call (cheap, cached per value) so a test or an operator's restart
 * with other values takes effect without a rebuild.
 */
import { hostPolicy, type HostPolicy } from "@/lib/http/hosts";

let cached: { key: string; policy: HostPolicy } | null = null;

/**
 * The policy in force.
 * @param env the environment (default `process.env`)
 * @throws HostListError naming the variable and entry that is not a host name
 */
export function hostPolicyFromEnv(env: Record<string, string | undefined> = process.env): HostPolicy {
  const allowedHosts = env.BENCHWORK_ALLOWED_HOSTS ?? "";
  const listenHost = env.BENCHWORK_HOST ?? "";
  const key = `${allowedHosts}\n${listenHost}`;
  if (cached?.key !== key) cached = { key, policy: hostPolicy({ allowedHosts, listenHost }) };
  return cached.policy;
}
