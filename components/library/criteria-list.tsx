"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import type { CriterionRow } from "@/db/queries/criteria";
import { customizeCriterionAction, setCriterionStatusAction } from "@/app/systems/[systemId]/library/actions";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import { useRoleAtLeast } from "@/components/auth/role-context";

function Table({
  rows,
  compact,
  selectedId,
  editHref,
  onStatus,
  onCustomize,
  pending,
}: {
  rows: CriterionRow[];
  compact: boolean;
  selectedId?: number;
  editHref: Record<number, string>;
  onStatus: (c: CriterionRow) => void;
  onCustomize: (c: CriterionRow) => void;
  pending: boolean;
}) {
  // Viewers read criteria; customizing and pausing are for editors (the server checks again).
  const canEdit = useRoleAtLeast("editor");
  return (
    <table className="w-full table-fixed text-left text-sm">
      <colgroup>
        <col className={compact ? "" : "w-[26%]"} />
        {compact ? null : <col />}
        {compact ? null : <col />}
        <col className="w-24" />
        <col className="w-24" />
        <col className="w-20" />
        <col className="w-44" />
      </colgroup>
      <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600">
        <tr>
          <th scope="col" className="px-3 py-2 font-medium">
            Rule
          </th>
          {compact ? null : (
            <th scope="col" className="px-3 py-2 font-medium">
              What passes
            </th>
          )}
          {compact ? null : (
            <th scope="col" className="px-3 py-2 font-medium">
              What fails
            </th>
          )}
          <th scope="col" className="px-3 py-2 font-medium">
            Priority
          </th>
          <th scope="col" className="px-3 py-2 font-medium">
            Origin
          </th>
          <th scope="col" className="px-3 py-2 font-medium">
            Status
          </th>
          <th scope="col" className="px-3 py-2 font-medium">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((c) => (
          <tr
            key={c.id}
            data-testid="criterion-row"
            className={`border-b border-slate-100 align-top last:border-0 ${c.id === selectedId ? "bg-indigo-50" : ""}`}
          >
            <td className="px-3 py-2.5 font-medium text-slate-900">
              {c.rule}
              <span className="mt-0.5 block text-xs font-normal text-slate-400">rev {c.revisionNumber}</span>
            </td>
            {compact ? null : <td className="px-3 py-2.5 text-slate-700">{c.passes}</td>}
            {compact ? null : <td className="px-3 py-2.5 text-slate-700">{c.fails}</td>}
            <td className="px-3 py-2.5">
              <Badge tone={c.priority === "primary" ? "indigo" : "slate"}>{c.priority}</Badge>
            </td>
            <td className="px-3 py-2.5">
              <Badge tone={c.origin === "custom" ? "sky" : "violet"}>{c.origin}</Badge>
            </td>
            <td className="px-3 py-2.5">
              <Badge tone={c.status === "active" ? "green" : "slate"}>{c.status}</Badge>
            </td>
            <td className="px-3 py-2.5">
              <span className="flex flex-wrap justify-end gap-1.5">
                {c.origin === "custom" ? (
                  <Link
                    href={editHref[c.id]}
                    className="inline-flex h-7 items-center rounded-md border border-slate-300 px-2.5 text-xs font-medium hover:bg-slate-50"
                    aria-label={`Edit criterion: ${c.rule}`}
                  >
                    Edit
                  </Link>
                ) : (
                  <>
                    <Link
                      href={editHref[c.id]}
                      className="inline-flex h-7 items-center rounded-md px-2 text-xs text-slate-700 hover:bg-slate-100"
                      aria-label={`View criterion: ${c.rule}`}
                    >
                      View
                    </Link>
                    <Button hidden={!canEdit} size="sm" onClick={() => onCustomize(c)} disabled={pending} aria-label={`Customize criterion: ${c.rule}`}>
                      Customize
                    </Button>
                  </>
                )}
                <Button
                  size="sm"
                  hidden={!canEdit}
                  onClick={() => onStatus(c)}
                  disabled={pending}
                  aria-label={`${c.status === "active" ? "Pause" : "Resume"} criterion: ${c.rule}`}
                >
                  {c.status === "active" ? "Pause" : "Resume"}
                </Button>
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Criteria of the selected prompt, custom and generated in separate sections. Generated criteria are
 * read-only and offer Customize; a prompt without generated criteria says so.
 */
export function CriteriaList({
  systemId,
  promptName,
  criteria,
  selectedId,
  editHref,
  adding = false,
}: {
  adding?: boolean;
  systemId: string;
  promptName: string;
  criteria: CriterionRow[];
  selectedId?: number;
  editHref: Record<number, string>;
}) {
  const router = useRouter();
  const toast = useToast();
  const [pending, startTransition] = useTransition();
  const custom = criteria.filter((c) => c.origin === "custom");
  const generated = criteria.filter((c) => c.origin === "generated");

  const onStatus = (c: CriterionRow) =>
    startTransition(async () => {
      const status = c.status === "active" ? "paused" : "active";
      const r = await setCriterionStatusAction(systemId, { criterionId: c.id, status });
      if (r.ok) {
        toast(status === "paused" ? `Paused “${c.rule}”: future benches will not judge it` : `Resumed “${c.rule}”`);
        router.refresh();
      } else toast(r.error.message, "error");
    });
  const onCustomize = (c: CriterionRow) =>
    startTransition(async () => {
      const r = await customizeCriterionAction(systemId, { criterionId: c.id });
      if (r.ok) {
        toast(`Created a custom copy of “${c.rule}” and paused the generated one`);
        const url = new URL(window.location.href);
        url.searchParams.set("edit", String(r.data.id));
        url.searchParams.delete("new");
        router.push(url.pathname + url.search);
      } else toast(r.error.message, "error");
    });

  // With the side panel open there is no room for the pass/fail texts; the panel shows them.
  const props = { selectedId, editHref, onStatus, onCustomize, pending, compact: selectedId !== undefined || adding };
  return (
    <div className="flex min-w-0 flex-col gap-5">
      <section aria-labelledby="custom-criteria" className="rounded-lg border border-slate-200 bg-white">
        <h2 id="custom-criteria" className="border-b border-slate-200 px-4 py-2.5 text-sm font-semibold">
          Custom criteria <span className="font-normal text-slate-500">({custom.length})</span>
        </h2>
        {custom.length ? (
          <Table rows={custom} {...props} />
        ) : (
          <p className="p-4 text-sm text-slate-600">No custom criteria for {promptName} yet. Use Add criterion to state a rule, what passes and what fails.</p>
        )}
      </section>
      <section aria-labelledby="generated-criteria" className="rounded-lg border border-slate-200 bg-white">
        <h2 id="generated-criteria" className="border-b border-slate-200 px-4 py-2.5 text-sm font-semibold">
          Generated criteria <span className="font-normal text-slate-500">({generated.length})</span>
        </h2>
        {generated.length ? (
          <Table rows={generated} {...props} />
        ) : (
          <p className="p-4 text-sm text-slate-600">
            No generated criteria for {promptName} yet: none has been generated for this prompt, so there are none to show.
          </p>
        )}
      </section>
    </div>
  );
}
