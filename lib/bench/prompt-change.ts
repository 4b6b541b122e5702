/**
 * The New bench default for a prompt change: the current revision against the previous one on the
 * same model, the previous one as the baseline (so a regression the edit causes blocks it). Pure.
 */
import type { BaselineRequest, CandidateRequest } from "./request";

/**
 * @param revisions the prompt's revisions, newest first (the first is the current one)
 * @param modelConfigId the model both candidates run on
 * @returns candidates `[previous, current]` with baseline = candidate 0, or null when the prompt has
 *   one revision (nothing to compare)
 */
export function promptChangeCandidates(
  revisions: readonly { id: number; number: number }[],
  modelConfigId: number,
): { candidates: CandidateRequest[]; baseline: BaselineRequest } | null {
  if (revisions.length < 2) return null;
  const [, previous] = revisions;
  return {
    // The current revision is sent as "current" (no id), as the form's revision menu has it.
    candidates: [
      { kind: "model", modelConfigId, promptRevisionId: previous.id },
      { kind: "model", modelConfigId },
    ],
    baseline: { kind: "candidate", index: 0 },
  };
}
