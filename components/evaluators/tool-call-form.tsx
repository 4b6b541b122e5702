"use client";

import { useState } from "react";
import type { ExpectedCall, ToolCallAlternative, ToolCallSyntaxSpec } from "@/lib/evaluators/spec";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { formatValueLines, parseValueLines } from "./json-lines";

function AcceptedValues({ values, onChange, label }: { values: unknown[] | undefined; onChange: (v: unknown[] | undefined) => void; label: string }) {
  // Local text so partially typed JSON is not re-formatted under the cursor.
  const [text, setText] = useState(formatValueLines(values));
  return (
    <textarea
      aria-label={label}
      rows={Math.max(1, Math.min(4, text.split("\n").length))}
      value={text}
      placeholder="any value"
      onChange={(e) => {
        setText(e.target.value);
        const parsed = parseValueLines(e.target.value);
        onChange(parsed.length ? parsed : undefined);
      }}
      className={`font-mono text-xs ${inputClass()}`}
    />
  );
}

function CallEditor({ call, onChange, onRemove, prefix }: { call: ExpectedCall; onChange: (c: ExpectedCall) => void; onRemove: () => void; prefix: string }) {
  const args = Object.entries(call.arguments ?? {});
  const setArgs = (entries: [string, { required?: boolean; acceptedValues?: unknown[] }][]) =>
    onChange({ ...call, arguments: Object.fromEntries(entries) as ExpectedCall["arguments"] });
  return (
    <div className="rounded-md border border-slate-200 bg-white p-2.5" data-testid="expected-call">
      <div className="flex flex-wrap items-center gap-2">
        <input aria-label={`${prefix} tool name`} value={call.toolName} placeholder="tool name" onChange={(e) => onChange({ ...call, toolName: e.target.value })} className={`w-48 font-mono ${inputClass()}`} />
        <label className="flex items-center gap-1.5 text-xs text-slate-700">
          <input type="checkbox" checked={(call.extraArguments ?? "forbid") === "allow"} onChange={(e) => onChange({ ...call, extraArguments: e.target.checked ? "allow" : "forbid" })} />
          allow other arguments
        </label>
        <Button size="sm" variant="ghost" className="ml-auto" aria-label={`Remove ${prefix}`} onClick={onRemove}>
          Remove call
        </Button>
      </div>
      <table className="mt-2 w-full text-xs">
        <thead className="text-left text-slate-500">
          <tr>
            <th className="w-36 pb-1 font-medium">Argument</th>
            <th className="w-20 pb-1 font-medium">Required</th>
            <th className="pb-1 font-medium">Accepted values (one per line; empty = any value)</th>
            <th className="w-8" />
          </tr>
        </thead>
        <tbody>
          {args.map(([name, rule], i) => (
            <tr key={i} className="align-top">
              <td className="pr-2 pb-1.5">
                <input
                  aria-label={`${prefix} argument ${i + 1} name`}
                  value={name}
                  onChange={(e) => setArgs(args.map(([n, r], j) => (j === i ? [e.target.value, r] : [n, r])))}
                  className={`font-mono ${inputClass()}`}
                />
              </td>
              <td className="pr-2 pb-1.5">
                <input
                  type="checkbox"
                  aria-label={`${prefix} argument ${i + 1} required`}
                  checked={rule.required ?? true}
                  onChange={(e) => setArgs(args.map(([n, r], j) => (j === i ? [n, { ...r, required: e.target.checked }] : [n, r])))}
                />
              </td>
              <td className="pr-2 pb-1.5">
                <AcceptedValues
                  label={`${prefix} argument ${i + 1} accepted values`}
                  values={rule.acceptedValues}
                  onChange={(v) => setArgs(args.map(([n, r], j) => (j === i ? [n, v === undefined ? { required: r.required } : { ...r, acceptedValues: v }] : [n, r])))}
                />
              </td>
              <td className="pb-1.5">
                <Button size="sm" variant="ghost" aria-label={`Remove ${prefix} argument ${i + 1}`} onClick={() => setArgs(args.filter((_, j) => j !== i))}>
                  ✕
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Button size="sm" onClick={() => setArgs([...args, [`arg${args.length + 1}`, { required: true }]])}>
        Add argument
      </Button>
    </div>
  );
}

/**
 * The tool-call form: alternatives (any one may match), each with an order, a forbid/allow switch
 * for extra calls, and its expected calls with their arguments, accepted values and switches.
 */
export function ToolCallSyntaxForm({ spec, onChange }: { spec: ToolCallSyntaxSpec; onChange: (s: ToolCallSyntaxSpec) => void }) {
  const setAlt = (i: number, a: ToolCallAlternative) => onChange({ ...spec, alternatives: spec.alternatives.map((x, j) => (j === i ? a : x)) });
  return (
    <div className="flex flex-col gap-3">
      {spec.alternatives.map((alt, i) => (
        <fieldset key={i} className="rounded-md border border-slate-300 bg-slate-50 p-2.5" data-testid="alternative">
          <legend className="px-1 text-xs font-semibold text-slate-700">
            Alternative {i + 1}
            {spec.alternatives.length > 1 ? " (any one alternative may match)" : ""}
          </legend>
          <div className="mb-2 flex flex-wrap items-center gap-3 text-xs text-slate-700">
            <label className="flex items-center gap-1.5">
              Order
              <select aria-label={`Alternative ${i + 1} order`} value={alt.order ?? "unordered"} onChange={(e) => setAlt(i, { ...alt, order: e.target.value as "ordered" | "unordered" })} className="h-7 rounded border border-slate-300 bg-white px-1">
                <option value="unordered">any order</option>
                <option value="ordered">in this order</option>
              </select>
            </label>
            <label className="flex items-center gap-1.5">
              <input type="checkbox" checked={(alt.extraCalls ?? "forbid") === "allow"} onChange={(e) => setAlt(i, { ...alt, extraCalls: e.target.checked ? "allow" : "forbid" })} />
              allow other calls
            </label>
            {spec.alternatives.length > 1 ? (
              <Button size="sm" variant="ghost" className="ml-auto" onClick={() => onChange({ ...spec, alternatives: spec.alternatives.filter((_, j) => j !== i) })}>
                Remove alternative
              </Button>
            ) : null}
          </div>
          <div className="flex flex-col gap-2">
            {alt.calls.map((call, k) => (
              <CallEditor
                key={k}
                prefix={`Alternative ${i + 1} call ${k + 1}`}
                call={call}
                onChange={(c) => setAlt(i, { ...alt, calls: alt.calls.map((x, j) => (j === k ? c : x)) })}
                onRemove={() => setAlt(i, { ...alt, calls: alt.calls.filter((_, j) => j !== k) })}
              />
            ))}
          </div>
          <Button size="sm" className="mt-2" onClick={() => setAlt(i, { ...alt, calls: [...alt.calls, { toolName: "", arguments: {}, extraArguments: "forbid" }] })}>
            Add expected call
          </Button>
        </fieldset>
      ))}
      <div>
        <Button size="sm" onClick={() => onChange({ ...spec, alternatives: [...spec.alternatives, { order: "unordered", calls: [{ toolName: "", arguments: {}, extraArguments: "forbid" }], extraCalls: "forbid" }] })}>
          Add alternative
        </Button>
      </div>
    </div>
  );
}
