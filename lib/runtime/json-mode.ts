/**
 * Structured output the way each provider supports it. An OpenAI-compatible server (Ollama, vLLM,
 * llama.cpp, LM Studio) is not assumed to take a JSON schema (`response_format: json_schema`):
 * the ai SDK then sends JSON mode (`json_object`) anyway, and logs "responseFormat is not
 * supported" on every call — once per judged check. Asking for JSON mode itself (the schema left
 * out of the request) gets the same request without the warning; the answer is still checked
 * against the schema by the SDK and read tolerantly by the judge.
 */
import { wrapLanguageModel, type LanguageModel } from "ai";
import type { ModelConfig } from "./model-config";

/**
 * The model to ask for structured output (a judge): for an OpenAI-compatible configuration, one
 * that requests JSON mode without the schema; any other model as it is.
 * @param model the model made from `config` (`createModel`)
 */
export function structuredOutputModel(model: LanguageModel, config: Pick<ModelConfig, "provider">): LanguageModel {
  if (config.provider !== "openai-compatible" || typeof model === "string" || model.specificationVersion !== "v3") return model;
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: "v3",
      transformParams: async ({ params }) =>
        params.responseFormat?.type === "json" && params.responseFormat.schema ? { ...params, responseFormat: { type: "json" } } : params,
    },
  });
}
