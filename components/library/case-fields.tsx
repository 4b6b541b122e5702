"use client";

import { TURN_ROLES, type NameValue, type Turn } from "@/lib/library/case-content";
import { LIMITS } from "@/lib/library/limits";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { TurnToolActivity } from "./turn-tool-activity";
import { turnToolActivity } from "@/lib/library/turn-calls";
import { Textarea } from "@/components/ui/textarea";

/**
 * Conversation history editor: a list of turns (role + text) that can be added, removed and
 * reordered. Turns the runtime cannot replay keep their note and stay editable as text; an
 * imported tool call shows its name and arguments (a turn that only calls tools has no text box).
 */
export function HistoryEditor({
  turns,
  onChange,
  errors,
  readOnly = false,
}: {
  turns: Turn[];
  onChange?: (t: Turn[]) => void;
  errors?: Record<string, string>;
  readOnly?: boolean;
}) {
  const set = (i: number, t: Partial<Turn>) => onChange?.(turns.map((x, j) => (j === i ? { ...x, ...t } : x)));
  const move = (i: number, d: -1 | 1) => {
    const next = [...turns];
    [next[i], next[i + d]] = [next[i + d], next[i]];
    onChange?.(next);
  };
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-slate-800">Conversation history</legend>
      {turns.length === 0 ? <p className="text-xs text-slate-500">No earlier turns: the case starts with its input.</p> : null}
      <ol className="flex flex-col gap-2">
        {turns.map((t, i) => (
          <li key={i} className="rounded-md border border-slate-200 bg-slate-50 p-2" data-testid="history-turn">
            <div className="flex items-center gap-2">
              <span className="w-6 text-xs text-slate-500">{i + 1}.</span>
              <select
                aria-label={`Turn ${i + 1} role`}
                value={t.role}
                disabled={readOnly}
                onChange={(e) => set(i, { role: e.target.value as Turn["role"] })}
                className="h-7 rounded border border-slate-300 bg-white px-1.5 text-xs"
              >
                {TURN_ROLES.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
              {t.replayable === false ? (
                <span className="text-[11px] text-amber-700" title={t.note}>
                  not replayable{t.note ? `: ${t.note}` : ""}
                </span>
              ) : null}
              {!readOnly ? (
                <span className="ml-auto flex gap-1">
                  <Button size="sm" variant="ghost" aria-label={`Move turn ${i + 1} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                    ↑
                  </Button>
                  <Button size="sm" variant="ghost" aria-label={`Move turn ${i + 1} down`} disabled={i === turns.length - 1} onClick={() => move(i, 1)}>
                    ↓
                  </Button>
                  <Button size="sm" variant="ghost" aria-label={`Remove turn ${i + 1}`} onClick={() => onChange?.(turns.filter((_, j) => j !== i))}>
                    ✕
                  </Button>
                </span>
              ) : null}
            </div>
            <TurnToolActivity turn={t} index={i} />
            {t.content === "" && turnToolActivity(t).calls.length > 0 ? null : (
              <Textarea
                aria-label={`Turn ${i + 1} text`}
                value={t.content}
                readOnly={readOnly}
                maxLength={LIMITS.turnContent}
                rows={2}
                onChange={(e) => set(i, { content: e.target.value })}
                className={`mt-1.5 ${inputClass(errors?.[`history.${i}.content`])}`}
              />
            )}
            {errors?.[`history.${i}.content`] ? <p className="text-xs text-red-700">{errors[`history.${i}.content`]}</p> : null}
          </li>
        ))}
      </ol>
      {!readOnly ? (
        <div>
          <Button
            size="sm"
            onClick={() => onChange?.([...turns, { role: turns.length % 2 === 0 ? "user" : "assistant", content: "" }])}
            disabled={turns.length >= LIMITS.turns}
          >
            Add turn
          </Button>
        </div>
      ) : null}
    </fieldset>
  );
}

/** Name/value rows (variables, context): add, edit, remove. Names must be unique. */
export function NameValueEditor({
  legend,
  field,
  rows,
  onChange,
  errors,
  readOnly = false,
  emptyText,
}: {
  legend: string;
  field: "variables" | "context";
  rows: NameValue[];
  onChange?: (r: NameValue[]) => void;
  errors?: Record<string, string>;
  readOnly?: boolean;
  emptyText: string;
}) {
  const set = (i: number, r: Partial<NameValue>) => onChange?.(rows.map((x, j) => (j === i ? { ...x, ...r } : x)));
  const singular = field === "variables" ? "variable" : "context row";
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-slate-800">{legend}</legend>
      {rows.length === 0 ? <p className="text-xs text-slate-500">{emptyText}</p> : null}
      {rows.map((r, i) => {
        const nameErr = errors?.[`${field}.${i}.name`];
        const valueErr = errors?.[`${field}.${i}.value`];
        return (
          <div key={i} className="flex flex-col gap-1" data-testid={`${field}-row`}>
            <div className="flex items-start gap-2">
              <input
                aria-label={`${legend} ${i + 1} name`}
                value={r.name}
                readOnly={readOnly}
                maxLength={LIMITS.name}
                placeholder="name"
                onChange={(e) => set(i, { name: e.target.value })}
                className={`w-40 font-mono ${inputClass(nameErr)}`}
              />
              <Textarea
                aria-label={`${legend} ${i + 1} value`}
                value={r.value}
                readOnly={readOnly}
                rows={1}
                placeholder="value"
                onChange={(e) => set(i, { value: e.target.value })}
                className={inputClass(valueErr)}
              />
              {!readOnly ? (
                <Button size="sm" variant="ghost" aria-label={`Remove ${singular} ${i + 1}`} onClick={() => onChange?.(rows.filter((_, j) => j !== i))}>
                  ✕
                </Button>
              ) : null}
            </div>
            {nameErr || valueErr ? <p className="text-xs text-red-700">{nameErr ?? valueErr}</p> : null}
          </div>
        );
      })}
      {!readOnly ? (
        <div>
          <Button size="sm" onClick={() => onChange?.([...rows, { name: "", value: "" }])} disabled={rows.length >= LIMITS.nameValueRows}>
            Add {singular}
          </Button>
        </div>
      ) : null}
    </fieldset>
  );
}
