/**
 * The per-provider limit key of a model configuration (`<provider> <base URL or "default">`): the
 * one rule the executor, the launch and the trial job queue's claim count provider slots by.
 */
import type { ModelConfig } from "@/lib/runtime/model-config";

/** The per-provider limit key of a model configuration: `<provider> <base URL or "default">`. */
export function providerKeyOfConfig(config: Pick<ModelConfig, "provider" | "baseUrl">): string {
  return `${config.provider} ${config.baseUrl ?? "default"}`;
}

/**
 * The provider key of a bench's stored judge (`benches.judge`: a model configuration as JSON, or
 * null), by {@link providerKeyOfConfig}.
 * @returns null without a judge (null, or JSON that is not an object with a provider)
 * @throws {SyntaxError} when the stored text is not JSON
 */
export function judgeProviderKeyOfStored(judge: string | null): string | null {
  if (judge === null) return null;
  const config = JSON.parse(judge) as unknown;
  if (typeof config !== "object" || config === null || typeof (config as { provider?: unknown }).provider !== "string") return null;
  return providerKeyOfConfig(config as Pick<ModelConfig, "provider" | "baseUrl">);
}
