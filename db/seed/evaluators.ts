/**
 * Evaluators attached to demo cases, by the name `workspace.json` gives. Filled in from the
 * evaluator registry (lib/evaluators) so the demo's benches score real checks.
 */
import type { CaseContent } from "@/lib/library/case-content";

/** The evaluator declarations for a demo case of the given kind (none yet for unknown kinds). */
export function demoEvaluators(kind: string, content: CaseContent): unknown[] {
  void kind;
  void content;
  return [];
}
