/**
 * Evaluators attached to demo cases, by the name `workspace.json` gives a case file:
 * - `gsm8k`: the recorded GSM8K solutions end with `A: <number>` (not `####`), so the marker is
 *   `A:`; this reproduces the source's own is_correct flags (datasets/recorded/README.md).
 * - `exact`: Banking77 intent labels compare exactly (case-sensitive).
 * - `support`: the tools the case lists must fire (others allowed); a case listing none must call none.
 * - `bfcl` / `bfcl-recorded`: BFCL ground truth as a `tool_call_syntax` spec (tool names with dots
 *   mapped to `_`, as BFCL does for OpenAI-style APIs).
 */
import { bfclGroundTruthToSpec } from "@/lib/evaluators/tool-calls/bfcl";
import type { CaseContent } from "@/lib/library/case-content";

const bfclName = (name: string) => name.replace(/\./g, "_");

/** The evaluator declarations for a demo case of the given kind (none for unknown kinds). */
export function demoEvaluators(kind: string, content: CaseContent): unknown[] {
  switch (kind) {
    case "gsm8k":
      return [{ kind: "gsm8k", marker: "A:", name: "Final answer after A:" }];
    case "exact":
      return [{ kind: "exact", name: "Intent label" }];
    case "support":
      return [
        { kind: "non_empty" },
        content.tools && content.tools.length
          ? { kind: "expected_tool_calls", names: content.tools, allowAdditional: true, name: "Uses the expected tools" }
          : { kind: "expected_tool_calls", names: [], allowAdditional: false, name: "Calls no tool" },
      ];
    case "bfcl":
    case "bfcl-recorded": {
      const order = (content.data as { category?: string } | null)?.category === "parallel" ? "unordered" : "ordered";
      const spec = bfclGroundTruthToSpec((content.data as { groundTruth: unknown }).groundTruth, { order });
      return [
        {
          ...spec,
          name: "Function call matches BFCL possible answers",
          alternatives: spec.alternatives.map((a) => ({ ...a, calls: a.calls.map((c) => ({ ...c, toolName: bfclName(c.toolName) })) })),
        },
      ];
    }
    default:
      return [];
  }
}
