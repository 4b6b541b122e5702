import type { BenchCandidate } from "@/db/queries/benches";
import type { ModelConfig } from "@/lib/runtime/model-config";

/** The per-provider limit key of a model configuration: `<provider> <base URL or "default">`. */
export function providerKeyOfConfig(config: Pick<ModelConfig, "provider" | "baseUrl">): string {
  return `${config.provider} ${config.baseUrl ?? "default"}`;
}

/**
 * The per-provider limit key of a candidate: `<provider> <base URL or "default">` for a model,
 * null for a recorded candidate (no provider is called).
 */
export function providerKeyOf(c: BenchCandidate | undefined): string | null {
  return c?.kind === "model" && c.modelConfig ? providerKeyOfConfig(c.modelConfig) : null;
}
