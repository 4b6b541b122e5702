/**
 * The tool calls exactly as the model sent them. The ai SDK parses a call's argument text with the
 * tool's input schema before anything reaches `onStepFinish`: a zod object drops keys it does not
 * know (and applies defaults and coercions), so an argument the model really sent would vanish from
 * the trace, and a `tool_call_syntax` check with `extraArguments: "forbid"` could never fail.
 *
 * A tap wraps the model with an ai SDK language-model middleware that reads every model response's
 * tool calls (id, name, argument text) before the SDK parses them. The trial record keeps that text
 * (`rawInput`) and judges the arguments decoded from it; the schema's result is kept beside it
 * (`parsedInput`) when it differs.
 */
import { wrapLanguageModel, type LanguageModel } from "ai";

/** One tool call of a model response, before the SDK parsed it. */
export interface RawToolCall {
  toolCallId: string;
  toolName: string;
  /** The argument text exactly as the model sent it ("" when it sent none). */
  rawInput: string;
}

/** A tapped model and what it saw. */
export interface ToolCallTap {
  /** The model to call: the given one wrapped, or the given one itself when it cannot be wrapped (a model id string, a V2 model). */
  model: LanguageModel;
  /**
   * The argument text the model sent for a call id, or undefined when unknown. Each text is given
   * once: a provider that reuses call ids across steps gets each step's own text, when the step's
   * calls are taken before the next model call (as `onStepFinish` does).
   */
  take(toolCallId: string): string | undefined;
}

/**
 * The arguments of a call as the model sent them: the text decoded as JSON, `{}` for an empty text
 * (as the SDK reads "no arguments"), the text itself when it is not JSON.
 */
export function argumentsAsSent(rawInput: string): unknown {
  if (rawInput.trim() === "") return {};
  try {
    return JSON.parse(rawInput);
  } catch {
    return rawInput;
  }
}

/**
 * Taps a model for one trial (the texts are per trial: make one tap per `generateText` call).
 * @param model the model under test
 * @param onCalls called with a response's tool calls as soon as it arrives — before the tools run,
 *   so a caller can still report a call whose tool never returns
 * @returns the wrapped model and the texts it saw
 */
export function tapToolCalls(model: LanguageModel, onCalls?: (calls: RawToolCall[]) => void): ToolCallTap {
  const texts = new Map<string, string>();
  const take = (id: string) => {
    const text = texts.get(id);
    texts.delete(id);
    return text;
  };
  if (typeof model !== "object" || model.specificationVersion !== "v3") return { model, take };
  const wrapped = wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: "v3",
      wrapGenerate: async ({ doGenerate }) => {
        const result = await doGenerate();
        const calls: RawToolCall[] = [];
        for (const part of result.content) {
          if (part.type !== "tool-call") continue;
          const rawInput = typeof part.input === "string" ? part.input : JSON.stringify(part.input ?? {});
          texts.set(part.toolCallId, rawInput);
          calls.push({ toolCallId: part.toolCallId, toolName: part.toolName, rawInput });
        }
        if (calls.length > 0) onCalls?.(calls);
        return result;
      },
    },
  });
  return { model: wrapped, take };
}
