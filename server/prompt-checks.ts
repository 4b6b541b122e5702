/**
 * Editing a prompt's default checks (issue 15), shared by the library page and the Plan's one-click
 * fix: validates the evaluator specs on the server, then stores them.
 */
import type { Db } from "@/db/client";
import { setPromptDefaultChecks } from "@/db/queries/prompt-checks";
import { validateEvaluatorSpecs } from "@/lib/evaluators/validate";
import { LibraryError } from "@/lib/library/errors";
import { LIMITS } from "@/lib/library/limits";

/**
 * Validates and stores a prompt's default checks.
 * @param checks evaluator specs (lib/evaluators/spec.ts); `[]` clears them
 * @throws LibraryError `validation` naming the check (1-based) and field of the first problems, or
 *   an unknown prompt; nothing is stored then
 */
export async function savePromptDefaultChecks(db: Db, systemId: string, promptId: number, checks: unknown[]): Promise<void> {
  if (checks.length > LIMITS.evaluators) throw new LibraryError("validation", `At most ${LIMITS.evaluators} default checks per prompt.`);
  // Checks that compare with the expected result read each case's own one when they run (a case
  // without one is excluded by the plan), so "no expected value" is not a problem here.
  const problems = validateEvaluatorSpecs(checks, { expected: "each case's expected result" });
  if (problems.length > 0) {
    const text = problems
      .slice(0, 3)
      .map((p) => `Check ${p.index + 1}${p.field ? ` (${p.field})` : ""}: ${p.message}`)
      .join(" ");
    throw new LibraryError("validation", `The default checks were not saved. ${text}`, { checks: text });
  }
  await setPromptDefaultChecks(db, systemId, promptId, checks);
}
