import type { BenchCandidate } from "@/db/queries/benches";
import { providerKeyOfConfig } from "@/lib/bench/provider-key";

export { providerKeyOfConfig };

/**
 * The per-provider limit key of a candidate: `<provider> <base URL or "default">` for a model,
 * null for a recorded candidate (no provider is called).
 */
export function providerKeyOf(c: BenchCandidate | undefined): string | null {
  return c?.kind === "model" && c.modelConfig ? providerKeyOfConfig(c.modelConfig) : null;
}
