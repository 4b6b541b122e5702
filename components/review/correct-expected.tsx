"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { correctExpectedAction } from "@/app/systems/[systemId]/benches/[benchId]/review/actions";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/textarea";

/**
 * Correct the expected result from a reviewed trial: a new revision of its case for future benches
 * (this bench, and every earlier one, keep the revision they pinned).
 */
export function CorrectExpected({
  systemId,
  benchId,
  trialId,
  caseKey,
  current,
}: {
  systemId: string;
  benchId: number;
  trialId: number;
  caseKey: string;
  /** The case's current revision (number and expected result), or null when it cannot be edited here. */
  current: { revisionNumber: number; expected: string; editable: boolean; why?: string } | null;
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [expected, setExpected] = useState(current?.expected ?? "");
  const [msg, setMsg] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, start] = useTransition();
  if (!current) return null;
  return (
    <section aria-label="Correct the expected result" className="rounded-md border border-slate-200 p-3 text-sm">
      <div className="flex items-center gap-2">
        <span className="text-slate-700">
          Case <code>{caseKey}</code> is at revision <span data-testid="case-revision">{current.revisionNumber}</span>.
        </span>
        {current.editable && !open ? (
          <Button size="sm" className="ml-auto" onClick={() => setOpen(true)}>
            Correct the expected result
          </Button>
        ) : null}
      </div>
      {!current.editable ? <p className="mt-1 text-xs text-slate-500">{current.why}</p> : null}
      {open ? (
        <form
          className="mt-2 flex flex-col gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            start(async () => {
              const r = await correctExpectedAction({ systemId, benchId, trialId, expected, baseRevision: current.revisionNumber });
              if (r.ok) {
                setMsg({
                  ok: true,
                  text: `Saved as revision ${r.data.revisionNumber} of ${r.data.caseKey}, for future benches. This bench keeps the revision it ran.`,
                });
                setOpen(false);
                router.refresh();
              } else setMsg({ ok: false, text: r.error.fieldErrors?.expected ?? r.error.message });
            });
          }}
        >
          <label className="text-xs text-slate-600">
            Expected result
            <Textarea
              value={expected}
              onChange={(e) => setExpected(e.target.value)}
              rows={3}
              className="mt-0.5 block w-full rounded-md border border-slate-300 px-2 py-1 font-mono text-xs"
            />
          </label>
          <div className="flex gap-2">
            <Button type="submit" variant="primary" size="sm" disabled={pending}>
              Save as a new revision
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}
      {msg ? (
        <p role="status" className={`mt-1 text-xs ${msg.ok ? "text-emerald-700" : "text-red-700"}`}>
          {msg.text}
        </p>
      ) : null}
    </section>
  );
}
