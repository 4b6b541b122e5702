/**
 * The model runtime (DESIGN.md §2 `lib/runtime`, §4 step 4 "Run", §7 "Models"): prompt rendering
 * and history replay, tools answered by fixtures, one trial through the ai SDK, retries, recorded
 * candidates, and models from configurations. Pure: impure things (model, clock, environment,
 * fetch, abort signal) come in as parameters.
 *
 * Import `@/lib/runtime/model-config` (not this barrel) from client components: this barrel pulls
 * in the provider packages.
 */
export { templateVariables, fillTemplate, type FilledTemplate } from "./template";
export { renderPrompt, unreplayableReason, type RenderPromptInput, type RenderedPrompt, type UnreplayableTurn } from "./render";
export {
  exposedTools,
  missingToolNames,
  matchFixture,
  fixtureResult,
  toAiSdkTools,
  toProviderJsonSchema,
  type FixtureMatch,
  type FixtureSource,
  type ToolResultEvent,
} from "./tools";
export { classifyError, redactSecrets, retryAfterMsFromHeaders, TRIAL_ERROR_KINDS, type ClassifyContext, type TrialError, type TrialErrorKind } from "./errors";
export { tapToolCalls, argumentsAsSent, type RawToolCall, type ToolCallTap } from "./tool-call-tap";
export { withRetries, retryDelayMs, defaultSleep, type RetryOptions, type RetryInfo } from "./retry";
export {
  zeroUsage,
  sumUsage,
  normalizeTrialToolCalls,
  recordStep,
  buildTrialRecord,
  type TrialRecord,
  type TrialStep,
  type TrialToolCall,
  type TrialToolResult,
  type TrialUsage,
  type NormalizedToolCall,
} from "./trial-record";
export { runModelTrial, runModelTrialWithRetries, DEFAULT_MAX_STEPS, type RunModelTrialInput, type TrialEvent } from "./run-trial";
export { recordedTrial, recordedCandidateNames, isMissingRecording, type MissingRecording, type RecordedCandidate } from "./recorded";
export { createModel, testConnection, MissingApiKeyError, type ConnectionResult, type FetchImpl } from "./providers";
export {
  MODEL_PROVIDERS,
  DEFAULT_API_KEY_ENV,
  ENV_VAR_NAME,
  DEFAULT_BASE_URL,
  modelConfigSchema,
  parseModelConfig,
  apiKeyVariable,
  costUsd,
  ModelConfigError,
  type ModelConfig,
  type ModelProvider,
  type ModelConfigIssue,
} from "./model-config";
export {
  KEY_VARIABLE_PATTERN,
  ALLOWED_KEY_VARS_ENV,
  KEY_HOSTS_ENV,
  PROVIDER_KEY_ORIGINS,
  KeyPolicyError,
  parseKeyPolicy,
  isAllowedKeyVariable,
  keyOriginAllowed,
  formatKeyOrigin,
  decideKeyUse,
  apiKeyStatus,
  type KeyOrigin,
  type KeyPolicy,
  type KeyPolicyErrorCode,
  type KeyStatus,
  type KeyUse,
} from "./key-policy";
