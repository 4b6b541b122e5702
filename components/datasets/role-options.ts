/** Labels of the role select on Map and preview (issue 3 wording). */
import type { ColumnRole } from "@/lib/import/mapping";

/** Option text of each role, in the order the select lists them. */
export const ROLE_OPTIONS: { role: ColumnRole; label: string }[] = [
  { role: "input", label: "Input" },
  { role: "expected", label: "Expected result" },
  { role: "history", label: "Conversation history" },
  { role: "actual_output", label: "Actual output (recorded)" },
  { role: "variable", label: "Variable" },
  { role: "variables_json", label: "Variables (JSON object)" },
  { role: "resolved_prompt", label: "Resolved prompt" },
  { role: "notes", label: "Notes" },
  { role: "case_id", label: "Case ID" },
  { role: "tags", label: "Tags" },
  { role: "expected_tool_calls", label: "Expected tool calls" },
  { role: "extra", label: "Keep as extra column" },
];
