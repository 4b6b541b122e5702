"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { bulkCheckAction } from "@/app/systems/[systemId]/library/actions";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import type { CaseListRow } from "@/db/queries/cases";
import { BULK_CHECKS, type BulkCheckName } from "@/lib/library/bulk-checks";
import type { CaseSource, CaseStatus } from "@/lib/library/case-content";
import { CasesTable } from "./cases-table";

/** The Cases tab's filter, as the bulk action re-reads it on the server. */
export interface BulkFilter {
  promptId?: number;
  source?: CaseSource;
  status?: CaseStatus;
  q?: string;
}

const selectClass = "h-8 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900";

/**
 * The Cases table with ticks, and the bulk action above it (issue 15): add or remove a check on
 * the ticked rows or on every case matching the filter; the server makes the new revisions in one
 * transaction.
 */
export function CasesWithBulk({
  systemId,
  filter,
  total,
  table,
}: {
  systemId: string;
  filter: BulkFilter;
  total: number;
  table: Omit<React.ComponentProps<typeof CasesTable>, "selection"> & { rows: CaseListRow[] };
}) {
  const router = useRouter();
  const toast = useToast();
  const [ids, setIds] = useState<Set<number>>(new Set());
  const [scope, setScope] = useState<"ticked" | "filter">("ticked");
  const [op, setOp] = useState<"add" | "remove">("add");
  const [check, setCheck] = useState<BulkCheckName>("exact");
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [pending, startTransition] = useTransition();
  const effectiveScope = ids.size === 0 ? "filter" : scope;
  const count = effectiveScope === "ticked" ? ids.size : total;

  const apply = () =>
    startTransition(async () => {
      setMessage(null);
      const target = effectiveScope === "ticked" ? { kind: "ids" as const, caseIds: [...ids] } : { kind: "filter" as const, filter };
      const r = await bulkCheckAction({ systemId, op, check, target });
      if (!r.ok) {
        setMessage({ tone: "error", text: r.error.message });
        return;
      }
      const { revised, unchanged, noExpected } = r.data;
      const text = [
        `${op === "add" ? "Added" : "Removed"} “${BULK_CHECKS[check].label}” ${op === "add" ? "to" : "from"} ${revised} case${revised === 1 ? "" : "s"} (new revisions)`,
        unchanged ? `${unchanged} unchanged` : "",
        noExpected.length
          ? `${noExpected.length} left out: no expected result (${noExpected.slice(0, 3).join(", ")}${noExpected.length > 3 ? ", …" : ""})`
          : "",
      ]
        .filter(Boolean)
        .join("; ");
      setMessage({ tone: "ok", text: `${text}.` });
      toast(text);
      setIds(new Set());
      router.refresh();
    });

  return (
    <>
      <div role="group" aria-label="Bulk action" className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-3 py-2 text-sm">
        <select aria-label="Add or remove" value={op} onChange={(e) => setOp(e.target.value as "add" | "remove")} className={selectClass}>
          <option value="add">Add check</option>
          <option value="remove">Remove check</option>
        </select>
        <select aria-label="Check" value={check} onChange={(e) => setCheck(e.target.value as BulkCheckName)} className={selectClass}>
          {(Object.keys(BULK_CHECKS) as BulkCheckName[]).map((k) => (
            <option key={k} value={k}>
              {BULK_CHECKS[k].label}
            </option>
          ))}
        </select>
        <select aria-label="Which cases" value={effectiveScope} onChange={(e) => setScope(e.target.value as "ticked" | "filter")} className={selectClass}>
          <option value="ticked" disabled={ids.size === 0}>
            {ids.size} ticked case{ids.size === 1 ? "" : "s"}
          </option>
          <option value="filter">
            all {total.toLocaleString("en-US")} case{total === 1 ? "" : "s"} matching the filter
          </option>
        </select>
        <Button size="sm" onClick={apply} disabled={pending || count === 0}>
          {pending ? "Applying…" : `Apply to ${count.toLocaleString("en-US")} case${count === 1 ? "" : "s"}`}
        </Button>
        {message ? (
          <span role={message.tone === "error" ? "alert" : "status"} className={`text-xs ${message.tone === "error" ? "text-red-700" : "text-emerald-800"}`}>
            {message.text}
          </span>
        ) : null}
      </div>
      <CasesTable
        {...table}
        selection={{
          ids,
          onToggle: (id, on) =>
            setIds((prev) => {
              const next = new Set(prev);
              if (on) next.add(id);
              else next.delete(id);
              return next;
            }),
          onToggleAll: (on) =>
            setIds((prev) => {
              const next = new Set(prev);
              for (const r of table.rows)
                if (on) next.add(r.id);
                else next.delete(r.id);
              return next;
            }),
        }}
      />
    </>
  );
}
