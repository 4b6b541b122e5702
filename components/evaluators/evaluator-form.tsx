"use client";

import { useState } from "react";
import type { EvaluatorSpec, ToolCallSyntaxSpec } from "@/lib/evaluators/spec";
import { EVALUATOR_KIND_LABEL } from "@/lib/evaluators/describe";
import { Field, inputClass } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { ToolCallSyntaxForm } from "./tool-call-form";
import { Textarea } from "@/components/ui/textarea";

/** Kinds a case can hold (judge criteria live in the Criteria tab, not on a case). */
export const CASE_EVALUATOR_KINDS = [
  "non_empty",
  "exact",
  "contains",
  "answer_bank",
  "gsm8k",
  "regex",
  "json",
  "tool_call_syntax",
  "expected_tool_calls",
  "custom",
] as const;
export type CaseEvaluatorKind = (typeof CASE_EVALUATOR_KINDS)[number];

export const KIND_LABEL: Record<CaseEvaluatorKind, string> = EVALUATOR_KIND_LABEL;

const CUSTOM_TEMPLATE = `function evaluate({ output, caseData, toolCalls, normalizedToolCalls, finishReason, usage }) {
  // Return true/false, or { passed, score, message, details }.
  return { passed: output.trim().length > 0, message: "output is not empty" };
}
`;

/** A new spec of a kind, with sensible starting values. */
export function newSpec(kind: CaseEvaluatorKind): EvaluatorSpec {
  switch (kind) {
    case "answer_bank":
      return { kind, answers: [""] };
    case "regex":
      return { kind, pattern: "" };
    case "tool_call_syntax":
      return {
        kind,
        version: 1,
        alternatives: [{ order: "unordered", calls: [{ toolName: "", arguments: {}, extraArguments: "forbid" }], extraCalls: "forbid" }],
      };
    case "expected_tool_calls":
      return { kind, names: [], allowAdditional: true };
    case "custom":
      return { kind, code: CUSTOM_TEMPLATE };
    default:
      return { kind } as EvaluatorSpec;
  }
}

function Check({ label, checked, onChange }: { label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label className="flex items-center gap-1.5 text-xs text-slate-700">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

type AnySpec = Record<string, unknown> & { kind: string };

function TextOptions({ spec, set }: { spec: AnySpec; set: (k: string, v: unknown) => void }) {
  return (
    <div className="flex flex-wrap gap-4">
      <Check label="Unicode normalization (NFC)" checked={spec.normalizeUnicode !== false} onChange={(v) => set("normalizeUnicode", v ? undefined : false)} />
      <Check label="Trim surrounding whitespace" checked={spec.trim === true} onChange={(v) => set("trim", v || undefined)} />
      <Check label="Ignore case" checked={spec.ignoreCase === true} onChange={(v) => set("ignoreCase", v || undefined)} />
    </div>
  );
}

function JsonSchemaField({ spec, set, id }: { spec: AnySpec; set: (k: string, v: unknown) => void; id: string }) {
  const [text, setText] = useState(spec.schema === undefined ? "" : JSON.stringify(spec.schema, null, 2));
  const [err, setErr] = useState<string | null>(null);
  return (
    <Field label="JSON Schema (optional)" htmlFor={id} error={err ?? undefined} hint="Leave empty to only require valid JSON.">
      <Textarea
        id={id}
        rows={5}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (!e.target.value.trim()) {
            setErr(null);
            set("schema", undefined);
            return;
          }
          try {
            set("schema", JSON.parse(e.target.value));
            setErr(null);
          } catch (x) {
            setErr(`Not valid JSON yet: ${(x as Error).message}`);
          }
        }}
        className={`font-mono text-xs ${inputClass(err ?? undefined)}`}
      />
    </Field>
  );
}

/** The fields of one evaluator, by kind. `uid` keeps element ids unique when several are open. */
export function EvaluatorForm({ spec, onChange, uid }: { spec: EvaluatorSpec; onChange: (s: EvaluatorSpec) => void; uid: string }) {
  const s = spec as unknown as AnySpec;
  const set = (k: string, v: unknown) => {
    const next: AnySpec = { ...s, [k]: v };
    if (v === undefined) delete next[k];
    onChange(next as unknown as EvaluatorSpec);
  };
  const name = (
    <Field label="Label (optional)" htmlFor={`${uid}-name`}>
      <input
        id={`${uid}-name`}
        value={(s.name as string) ?? ""}
        onChange={(e) => set("name", e.target.value || undefined)}
        className={inputClass()}
        placeholder="shown in results"
      />
    </Field>
  );
  const expected = (hint: string) => (
    <Field label="Expected value" htmlFor={`${uid}-expected`} hint={hint}>
      <Textarea
        id={`${uid}-expected`}
        rows={2}
        value={(s.expected as string) ?? ""}
        onChange={(e) => set("expected", e.target.value === "" ? undefined : e.target.value)}
        className={inputClass()}
        placeholder="the case's expected result"
      />
    </Field>
  );

  switch (spec.kind) {
    case "non_empty":
      return (
        <div className="flex flex-col gap-2">
          <p className="text-xs text-slate-600">
            Fails when the output is empty or only whitespace or invisible characters. “0”, “false” and “.” count as non-empty.
          </p>
          {name}
        </div>
      );
    case "exact":
    case "contains":
      return (
        <div className="flex flex-col gap-2.5">
          {expected(
            spec.kind === "exact"
              ? "Empty: compare with the case's expected result. Case-sensitive."
              : "A literal, case-sensitive substring — never a regular expression. Empty: the case's expected result.",
          )}
          <TextOptions spec={s} set={set} />
          {name}
        </div>
      );
    case "answer_bank": {
      const answers = (s.answers as string[]) ?? [];
      return (
        <div className="flex flex-col gap-2.5">
          <fieldset className="flex flex-col gap-1.5">
            <legend className="text-sm font-medium text-slate-800">Accepted answers</legend>
            <p className="text-xs text-slate-500">The output must equal one of these. Each row is one answer, commas included.</p>
            {answers.map((a, i) => (
              <div key={i} className="flex gap-2">
                <input
                  aria-label={`Answer ${i + 1}`}
                  value={a}
                  onChange={(e) =>
                    set(
                      "answers",
                      answers.map((x, j) => (j === i ? e.target.value : x)),
                    )
                  }
                  className={inputClass()}
                />
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Remove answer ${i + 1}`}
                  onClick={() =>
                    set(
                      "answers",
                      answers.filter((_, j) => j !== i),
                    )
                  }
                >
                  ✕
                </Button>
              </div>
            ))}
            <div>
              <Button size="sm" onClick={() => set("answers", [...answers, ""])}>
                Add answer
              </Button>
            </div>
          </fieldset>
          <TextOptions spec={s} set={set} />
          {name}
        </div>
      );
    }
    case "gsm8k":
      return (
        <div className="flex flex-col gap-2.5">
          {expected("A number (1,234 and 1234.00 are equal) or a worked solution ending in #### N. Empty: the case's expected result.")}
          <div className="grid grid-cols-2 gap-3">
            <Field label="Marker" htmlFor={`${uid}-marker`} hint="The final answer follows the last marker. Default ####.">
              <input
                id={`${uid}-marker`}
                value={(s.marker as string) ?? ""}
                placeholder="####"
                onChange={(e) => set("marker", e.target.value || undefined)}
                className={`font-mono ${inputClass()}`}
              />
            </Field>
            <Field label="Extraction" htmlFor={`${uid}-mode`}>
              <select
                id={`${uid}-mode`}
                value={(s.mode as string) ?? "strict"}
                onChange={(e) => set("mode", e.target.value === "strict" ? undefined : e.target.value)}
                className={inputClass()}
              >
                <option value="strict">strict: the number after the marker only</option>
                <option value="flexible">flexible: else the last number in the output</option>
              </select>
            </Field>
          </div>
          {name}
        </div>
      );
    case "regex":
      return (
        <div className="flex flex-col gap-2.5">
          <div className="grid grid-cols-[1fr_6rem] gap-3">
            <Field label="Pattern" htmlFor={`${uid}-pattern`} hint="JavaScript regular expression syntax.">
              <input
                id={`${uid}-pattern`}
                value={(s.pattern as string) ?? ""}
                onChange={(e) => set("pattern", e.target.value)}
                className={`font-mono ${inputClass()}`}
              />
            </Field>
            <Field label="Flags" htmlFor={`${uid}-flags`} hint="i m s u v">
              <input
                id={`${uid}-flags`}
                value={(s.flags as string) ?? ""}
                onChange={(e) => set("flags", e.target.value || undefined)}
                className={`font-mono ${inputClass()}`}
              />
            </Field>
          </div>
          {name}
        </div>
      );
    case "json":
      return (
        <div className="flex flex-col gap-2.5">
          <JsonSchemaField spec={s} set={set} id={`${uid}-schema`} />
          <Check
            label="Accept a ```json code fence around the output"
            checked={s.allowCodeFence === true}
            onChange={(v) => set("allowCodeFence", v || undefined)}
          />
          {name}
        </div>
      );
    case "tool_call_syntax":
      return (
        <div className="flex flex-col gap-2.5">
          <p className="text-xs text-slate-600">
            Passes when the observed tool calls match any alternative. Arguments sent as JSON text are parsed; key order never matters; numbers compare by value
            but never equal text; tool names are case-sensitive.
          </p>
          <ToolCallSyntaxForm spec={spec as ToolCallSyntaxSpec} onChange={onChange} />
          {name}
        </div>
      );
    case "expected_tool_calls":
      return (
        <div className="flex flex-col gap-2.5">
          <Field
            label="Tools that must fire"
            htmlFor={`${uid}-names`}
            hint="Tool names separated by commas or spaces; case-sensitive. Empty + no other tools = no tool may fire."
          >
            <input
              id={`${uid}-names`}
              defaultValue={((s.names as string[]) ?? []).join(", ")}
              onChange={(e) =>
                set(
                  "names",
                  e.target.value
                    .split(/[\s,]+/)
                    .map((x) => x.trim())
                    .filter(Boolean),
                )
              }
              className={`font-mono ${inputClass()}`}
            />
          </Field>
          <Check label="Other tools may also fire" checked={s.allowAdditional !== false} onChange={(v) => set("allowAdditional", v ? undefined : false)} />
          {name}
        </div>
      );
    case "custom":
      return (
        <div className="flex flex-col gap-2.5">
          <Field
            label="Code"
            htmlFor={`${uid}-code`}
            hint="Defines evaluate(trial). Runs in a sandbox: no network, files or secrets; 5-second deadline. A crash or a wrong result is an evaluator error, never a model failure."
          >
            <Textarea
              id={`${uid}-code`}
              rows={10}
              spellCheck={false}
              value={(s.code as string) ?? ""}
              onChange={(e) => set("code", e.target.value)}
              className={`font-mono text-xs ${inputClass()}`}
            />
          </Field>
          {name}
        </div>
      );
    default:
      return <p className="text-xs text-slate-600">This evaluator kind cannot be edited here.</p>;
  }
}
