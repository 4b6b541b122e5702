"use client";

import { useState } from "react";
import type { ExpectedCall, ToolCallAlternative, ToolCallSyntaxSpec } from "@/lib/evaluators/spec";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { formatValueLines, parseValueLines } from "./json-lines";
import { Textarea } from "@/components/ui/textarea";

function AcceptedValues({ values, onChange, label }: { values: unknown[] | undefined; onChange: (v: unknown[] | undefined) => void; label: string }) {
  // Local text so partially typed JSON is not re-formatted under the cursor.
  const [text, setText] = useState(formatValueLines(values));
  return (
    <Textarea
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

type ArgRow = { key: number; name: string; rule: { required?: boolean; acceptedValues?: unknown[] } };
let nextRowKey = 1;

/** Duplicate or empty argument names, as a message (null when the rows are fine). */
export function argumentRowsProblem(rows: { name: string }[]): string | null {
  const names = rows.map((r) => r.name.trim());
  if (names.some((n) => n === "")) return "Every argument needs a name.";
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  return dup ? `Argument “${dup}” appears twice: give each argument its own name.` : null;
}

function CallEditor({ call, onChange, onRemove, prefix }: { call: ExpectedCall; onChange: (c: ExpectedCall) => void; onRemove: () => void; prefix: string }) {
  // Rows live here with stable keys, so renaming an argument to another's name never merges or
  // drops a row, and each row keeps its own accepted-values text. The spec is updated only while
  // the names are valid; otherwise the problem is shown and the last valid spec stays.
  const [rows, setRows] = useState<ArgRow[]>(() => Object.entries(call.arguments ?? {}).map(([name, rule]) => ({ key: nextRowKey++, name, rule: rule ?? {} })));
  const problem = argumentRowsProblem(rows);
  const update = (next: ArgRow[]) => {
    setRows(next);
    if (!argumentRowsProblem(next)) onChange({ ...call, arguments: Object.fromEntries(next.map((r) => [r.name.trim(), r.rule])) as ExpectedCall["arguments"] });
  };
  return (
    <div className="rounded-md border border-slate-200 bg-white p-2.5" data-testid="expected-call">
      <div className="flex flex-wrap items-center gap-2">
        <input
          aria-label={`${prefix} tool name`}
          value={call.toolName}
          placeholder="tool name"
          onChange={(e) => onChange({ ...call, toolName: e.target.value })}
          className={`w-48 font-mono ${inputClass()}`}
        />
        <label className="flex items-center gap-1.5 text-xs text-slate-700">
          <input
            type="checkbox"
            checked={(call.extraArguments ?? "forbid") === "allow"}
            onChange={(e) => onChange({ ...call, extraArguments: e.target.checked ? "allow" : "forbid" })}
          />
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
          {rows.map((row, i) => (
            <tr key={row.key} className="align-top">
              <td className="pr-2 pb-1.5">
                <input
                  aria-label={`${prefix} argument ${i + 1} name`}
                  value={row.name}
                  onChange={(e) => update(rows.map((r) => (r.key === row.key ? { ...r, name: e.target.value } : r)))}
                  className={`font-mono ${inputClass(problem && (row.name.trim() === "" || rows.filter((r) => r.name.trim() === row.name.trim()).length > 1) ? problem : undefined)}`}
                />
              </td>
              <td className="pr-2 pb-1.5">
                <input
                  type="checkbox"
                  aria-label={`${prefix} argument ${i + 1} required`}
                  checked={row.rule.required ?? true}
                  onChange={(e) => update(rows.map((r) => (r.key === row.key ? { ...r, rule: { ...r.rule, required: e.target.checked } } : r)))}
                />
              </td>
              <td className="pr-2 pb-1.5">
                <AcceptedValues
                  label={`${prefix} argument ${i + 1} accepted values`}
                  values={row.rule.acceptedValues}
                  onChange={(v) =>
                    update(
                      rows.map((r) =>
                        r.key === row.key
                          ? {
                              ...r,
                              rule: v === undefined ? (r.rule.required === undefined ? {} : { required: r.rule.required }) : { ...r.rule, acceptedValues: v },
                            }
                          : r,
                      ),
                    )
                  }
                />
              </td>
              <td className="pb-1.5">
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Remove ${prefix} argument ${i + 1}`}
                  onClick={() => update(rows.filter((r) => r.key !== row.key))}
                >
                  ✕
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {problem ? (
        <p role="alert" className="mb-1.5 text-xs text-red-700">
          {problem}
        </p>
      ) : null}
      <Button
        size="sm"
        onClick={() => {
          let n = rows.length + 1;
          while (rows.some((r) => r.name === `arg${n}`)) n++;
          update([...rows, { key: nextRowKey++, name: `arg${n}`, rule: { required: true } }]);
        }}
      >
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
  // Stable React keys for alternatives and calls (parallel to the spec), so removing one never
  // hands its neighbour's local editing state to another.
  const [keys, setKeys] = useState(() =>
    spec.alternatives
      .map(() => ({ alt: nextRowKey++, calls: [] as number[] }))
      .map((k, i) => ({ ...k, calls: spec.alternatives[i].calls.map(() => nextRowKey++) })),
  );
  const setAlt = (i: number, a: ToolCallAlternative) => onChange({ ...spec, alternatives: spec.alternatives.map((x, j) => (j === i ? a : x)) });
  const keyOfCall = (i: number, k: number) => keys[i]?.calls[k] ?? -(i * 1000 + k + 1);
  return (
    <div className="flex flex-col gap-3">
      {spec.alternatives.map((alt, i) => (
        <fieldset key={keys[i]?.alt ?? -i - 1} className="rounded-md border border-slate-300 bg-slate-50 p-2.5" data-testid="alternative">
          <legend className="px-1 text-xs font-semibold text-slate-700">
            Alternative {i + 1}
            {spec.alternatives.length > 1 ? " (any one alternative may match)" : ""}
          </legend>
          <div className="mb-2 flex flex-wrap items-center gap-3 text-xs text-slate-700">
            <label className="flex items-center gap-1.5">
              Order
              <select
                aria-label={`Alternative ${i + 1} order`}
                value={alt.order ?? "unordered"}
                onChange={(e) => setAlt(i, { ...alt, order: e.target.value as "ordered" | "unordered" })}
                className="h-7 rounded border border-slate-300 bg-white px-1"
              >
                <option value="unordered">any order</option>
                <option value="ordered">in this order</option>
              </select>
            </label>
            <label className="flex items-center gap-1.5">
              <input
                type="checkbox"
                checked={(alt.extraCalls ?? "forbid") === "allow"}
                onChange={(e) => setAlt(i, { ...alt, extraCalls: e.target.checked ? "allow" : "forbid" })}
              />
              allow other calls
            </label>
            {spec.alternatives.length > 1 ? (
              <Button
                size="sm"
                variant="ghost"
                className="ml-auto"
                onClick={() => {
                  setKeys((ks) => ks.filter((_, j) => j !== i));
                  onChange({ ...spec, alternatives: spec.alternatives.filter((_, j) => j !== i) });
                }}
              >
                Remove alternative
              </Button>
            ) : null}
          </div>
          <div className="flex flex-col gap-2">
            {alt.calls.map((call, k) => (
              <CallEditor
                key={keyOfCall(i, k)}
                prefix={`Alternative ${i + 1} call ${k + 1}`}
                call={call}
                onChange={(c) => setAlt(i, { ...alt, calls: alt.calls.map((x, j) => (j === k ? c : x)) })}
                onRemove={() => {
                  setKeys((ks) => ks.map((x, j) => (j === i ? { ...x, calls: x.calls.filter((_, c) => c !== k) } : x)));
                  setAlt(i, { ...alt, calls: alt.calls.filter((_, j) => j !== k) });
                }}
              />
            ))}
          </div>
          <Button
            size="sm"
            className="mt-2"
            onClick={() => {
              setKeys((ks) => ks.map((x, j) => (j === i ? { ...x, calls: [...x.calls, nextRowKey++] } : x)));
              setAlt(i, { ...alt, calls: [...alt.calls, { toolName: "", arguments: {}, extraArguments: "forbid" }] });
            }}
          >
            Add expected call
          </Button>
        </fieldset>
      ))}
      <div>
        <Button
          size="sm"
          onClick={() => {
            setKeys((ks) => [...ks, { alt: nextRowKey++, calls: [nextRowKey++] }]);
            onChange({
              ...spec,
              alternatives: [
                ...spec.alternatives,
                { order: "unordered", calls: [{ toolName: "", arguments: {}, extraArguments: "forbid" }], extraCalls: "forbid" },
              ],
            });
          }}
        >
          Add alternative
        </Button>
      </div>
    </div>
  );
}
