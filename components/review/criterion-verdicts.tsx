"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import { recordVerdictAction } from "@/app/systems/[systemId]/benches/[benchId]/review/actions";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import type { HumanVerdictValue } from "@/lib/review/overlay";
import { Textarea } from "@/components/ui/textarea";

/** One criterion of the trial under review. */
export interface ReviewCriterion {
  key: string;
  label: string;
  priority?: "primary" | "secondary";
  judgeVerdict: "passed" | "failed" | "unscored" | "error";
  judgeReason: string;
  human: { verdict: HumanVerdictValue; note: string; reviewer: string } | null;
}

const WORD: Record<HumanVerdictValue, string> = { pass: "pass", fail: "fail", cant_tell: "can't tell" };
const TONE = { passed: "green", failed: "red", unscored: "slate", error: "amber" } as const;

/** Keys typed into a field are text, not commands. */
function typing(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  return !!el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable);
}

/**
 * The verdict panel of the review mode: per criterion the judge's verdict (hidden in blind review),
 * pass / fail / can't tell and a note. Keys (not while typing in a field): j / k next / previous
 * trial, p / f / u verdict on the selected criterion (then the next is selected), n note.
 */
export function CriterionVerdicts({
  systemId,
  benchId,
  trialId,
  criteria,
  blind,
  prevHref,
  nextHref,
}: {
  systemId: string;
  benchId: number;
  trialId: number;
  criteria: ReviewCriterion[];
  blind: boolean;
  prevHref: string | null;
  nextHref: string | null;
}) {
  const router = useRouter();
  const [active, setActive] = useState(0);
  const [notes, setNotes] = useState<Record<string, string>>(() => Object.fromEntries(criteria.map((c) => [c.key, c.human?.note ?? ""])));
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, start] = useTransition();
  // Marked once the key listener is attached (keys pressed before hydration do nothing).
  const group = useRef<HTMLDivElement>(null);
  const noteRefs = useRef<Record<string, HTMLTextAreaElement | null>>({});

  const give = (index: number, verdict: HumanVerdictValue) => {
    const c = criteria[index];
    if (!c) return;
    start(async () => {
      const r = await recordVerdictAction({ systemId, benchId, trialId, checkKey: c.key, verdict, note: notes[c.key] ?? "" });
      if (!r.ok) {
        setMessage({ ok: false, text: r.error.message });
        return;
      }
      setMessage({ ok: true, text: `Saved: ${WORD[verdict]} on “${c.label}”.` });
      setActive(Math.min(index + 1, criteria.length - 1));
      router.refresh();
    });
  };

  // The latest handlers for the window listener, without re-subscribing on every render.
  const keys = useRef<(e: KeyboardEvent) => void>(() => {});
  useEffect(() => {
    keys.current = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      if (e.key === "j" && nextHref) router.push(nextHref, { scroll: false });
      else if (e.key === "k" && prevHref) router.push(prevHref, { scroll: false });
      else if (e.key === "p" || e.key === "f" || e.key === "u") give(active, e.key === "p" ? "pass" : e.key === "f" ? "fail" : "cant_tell");
      else if (e.key === "n") {
        e.preventDefault();
        noteRefs.current[criteria[active]?.key]?.focus();
      } else return;
    };
  });
  useEffect(() => {
    const on = (e: KeyboardEvent) => keys.current(e);
    window.addEventListener("keydown", on);
    group.current?.setAttribute("data-keys-ready", "true");
    return () => window.removeEventListener("keydown", on);
  }, []);

  if (criteria.length === 0) return <p className="text-sm text-slate-500">This trial has no judged criterion to review.</p>;
  return (
    <div className="flex flex-col gap-3" aria-label="Verdicts" role="group" ref={group}>
      <p className="text-xs text-slate-500">
        Keys: <kbd>j</kbd>/<kbd>k</kbd> next/previous trial · <kbd>p</kbd> pass · <kbd>f</kbd> fail · <kbd>u</kbd> can&apos;t tell · <kbd>n</kbd> note
        {blind ? " · blind review: the judge's verdicts are hidden" : ""}
      </p>
      <ul className="flex flex-col gap-2">
        {criteria.map((c, i) => (
          <li
            key={c.key}
            data-testid="review-criterion"
            aria-current={i === active ? "true" : undefined}
            onClick={() => setActive(i)}
            className={`rounded-md border p-3 text-sm ${i === active ? "border-indigo-400 ring-1 ring-indigo-300" : "border-slate-200"}`}
          >
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium">{c.label}</span>
              {c.priority ? <Badge tone={c.priority === "primary" ? "indigo" : "slate"}>{c.priority}</Badge> : null}
              {c.human && c.human.verdict !== "cant_tell" ? (
                <Badge tone={c.human.verdict === "pass" ? "green" : "red"} title={`by ${c.human.reviewer}; it takes precedence over the judge's verdict`}>
                  human verdict: {WORD[c.human.verdict]}
                </Badge>
              ) : c.human ? (
                <Badge title={`by ${c.human.reviewer}; the judge's verdict stands`}>human verdict: can&apos;t tell</Badge>
              ) : null}
            </div>
            {blind ? (
              <p className="mt-1 text-xs text-slate-500" data-testid="judge-hidden">
                Judge&apos;s verdict hidden (blind review).
              </p>
            ) : (
              <p className="mt-1 text-xs text-slate-700" data-testid="judge-verdict">
                <Badge tone={TONE[c.judgeVerdict]}>judge: {c.judgeVerdict}</Badge> {c.judgeReason}
              </p>
            )}
            <div className="mt-2 flex flex-wrap items-center gap-1.5">
              {(["pass", "fail", "cant_tell"] as const).map((v) => (
                <Button
                  key={v}
                  size="sm"
                  variant={c.human?.verdict === v ? "primary" : "secondary"}
                  aria-pressed={c.human?.verdict === v}
                  disabled={pending}
                  onClick={(e) => {
                    e.stopPropagation();
                    give(i, v);
                  }}
                >
                  {v === "pass" ? "Pass (p)" : v === "fail" ? "Fail (f)" : "Can't tell (u)"}
                </Button>
              ))}
            </div>
            <label className="mt-2 block text-xs text-slate-600">
              Note (n)
              <Textarea
                ref={(el) => {
                  noteRefs.current[c.key] = el;
                }}
                value={notes[c.key] ?? ""}
                maxLength={2000}
                rows={2}
                onFocus={() => setActive(i)}
                onKeyDown={(e) => {
                  if (e.key === "Escape") (e.target as HTMLTextAreaElement).blur();
                }}
                onChange={(e) => setNotes({ ...notes, [c.key]: e.target.value })}
                className="mt-0.5 block w-full rounded-md border border-slate-300 px-2 py-1 text-sm"
                aria-label={`Note on ${c.label}`}
              />
            </label>
          </li>
        ))}
      </ul>
      <p role="status" aria-live="polite" className={`text-xs ${message?.ok === false ? "text-red-700" : "text-slate-600"}`}>
        {pending ? "Saving…" : (message?.text ?? "")}
      </p>
    </div>
  );
}
