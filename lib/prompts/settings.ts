/**
 * Model settings of a prompt revision and the one precedence rule (README "Prompts"): a setting the
 * prompt revision gives wins over the model configuration's default; the configuration's value is
 * used only where the revision is silent. Pure.
 */
import { z } from "zod";

/** Limits of a prompt revision's model settings (also stated in the edit form). */
export const SETTINGS_LIMITS = { maxOutputTokens: 200_000, stopSequences: 16, stopSequence: 200, providerOptions: 20_000 } as const;

/**
 * Model settings a prompt revision may carry. Units: `maxOutputTokens` in tokens; `temperature`
 * 0–2; `topP` 0–1. `providerOptions` is passed to the ai SDK as is, keyed by provider
 * (`{ "openai": { "reasoningEffort": "low" } }`). Unknown keys are refused, so a typo is not saved
 * as a setting nobody reads.
 */
export const promptModelSettingsSchema = z
  .object({
    temperature: z
      .number({ error: "Temperature must be a number from 0 to 2." })
      .min(0, { error: "Temperature must be a number from 0 to 2." })
      .max(2, { error: "Temperature must be a number from 0 to 2." })
      .optional(),
    maxOutputTokens: z
      .number({ error: `Max output tokens must be a whole number from 1 to ${SETTINGS_LIMITS.maxOutputTokens.toLocaleString("en-US")}.` })
      .int({ error: `Max output tokens must be a whole number from 1 to ${SETTINGS_LIMITS.maxOutputTokens.toLocaleString("en-US")}.` })
      .min(1, { error: `Max output tokens must be a whole number from 1 to ${SETTINGS_LIMITS.maxOutputTokens.toLocaleString("en-US")}.` })
      .max(SETTINGS_LIMITS.maxOutputTokens, {
        error: `Max output tokens must be a whole number from 1 to ${SETTINGS_LIMITS.maxOutputTokens.toLocaleString("en-US")}.`,
      })
      .optional(),
    topP: z
      .number({ error: "Top P must be a number from 0 to 1." })
      .min(0, { error: "Top P must be a number from 0 to 1." })
      .max(1, { error: "Top P must be a number from 0 to 1." })
      .optional(),
    stopSequences: z
      .array(
        z
          .string()
          .min(1, { error: "A stop sequence may not be empty." })
          .max(SETTINGS_LIMITS.stopSequence, { error: `A stop sequence is at most ${SETTINGS_LIMITS.stopSequence} characters.` }),
      )
      .max(SETTINGS_LIMITS.stopSequences, { error: `At most ${SETTINGS_LIMITS.stopSequences} stop sequences.` })
      .optional(),
    providerOptions: z
      .record(z.string(), z.record(z.string(), z.unknown()), {
        error: 'Provider options must be an object keyed by provider, e.g. {"openai": {"reasoningEffort": "low"}}.',
      })
      .optional(),
  })
  .strict();

/** A prompt revision's model settings, validated. */
export type PromptModelSettings = z.infer<typeof promptModelSettingsSchema>;

/** The settings of one model call, after {@link effectiveCallSettings}. Absent = the provider's default. */
export interface CallSettings {
  temperature?: number;
  maxOutputTokens?: number;
  topP?: number;
  stopSequences?: string[];
  providerOptions?: Record<string, Record<string, unknown>>;
}

const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/**
 * The settings a trial sends: the prompt revision's value for every setting it gives, else the
 * model configuration's default (temperature, max output tokens), else nothing (the provider's
 * default). Reads stored settings defensively: a value of the wrong type counts as not given.
 * @param prompt the prompt revision's `modelSettings` (as stored; may hold other keys)
 * @param model the model configuration's defaults
 */
export function effectiveCallSettings(prompt: Record<string, unknown> | undefined, model: { temperature?: number; maxOutputTokens?: number }): CallSettings {
  const p = prompt ?? {};
  const out: CallSettings = {};
  const temperature = num(p.temperature) ?? model.temperature;
  if (temperature !== undefined) out.temperature = temperature;
  const maxOutputTokens = num(p.maxOutputTokens) ?? model.maxOutputTokens;
  if (maxOutputTokens !== undefined) out.maxOutputTokens = maxOutputTokens;
  const topP = num(p.topP);
  if (topP !== undefined) out.topP = topP;
  if (Array.isArray(p.stopSequences) && p.stopSequences.length && p.stopSequences.every((s) => typeof s === "string"))
    out.stopSequences = p.stopSequences as string[];
  if (p.providerOptions && typeof p.providerOptions === "object" && !Array.isArray(p.providerOptions))
    out.providerOptions = p.providerOptions as Record<string, Record<string, unknown>>;
  return out;
}
