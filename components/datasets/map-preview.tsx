"use client";

import { useRouter } from "next/navigation";
import { useDeferredValue, useMemo, useState, useTransition } from "react";
import { saveDatasetAction, discardUploadAction } from "@/app/systems/[systemId]/datasets/actions";
import { analysePreview, withCorrection, type PreviewChoices } from "@/lib/datasets/preview";
import type { Corrections } from "@/lib/datasets/types";
import type { ColumnAssignment, ColumnMapping, ColumnRole } from "@/lib/import/mapping";
import { DEFAULT_REDACTION, keepListProblems, parseKeepList, type RedactionSettings } from "@/lib/import/redact/settings";
import { normalizeName, outputCandidateName } from "@/lib/import/suggest";
import type { ImportTable } from "@/lib/import/types";
import { useToast } from "@/components/ui/toast";
import { ColumnsEditor } from "./columns-editor";
import { MappedRowsPreview } from "./mapped-rows-preview";
import { ProblemLine } from "./problem-line";
import { ProblemRows } from "./problem-rows";
import { RedactionSettingsForm } from "./redaction-settings";
import { RedactionView } from "./redaction-view";
import { SavePanel } from "./save-panel";
import { ChecksPicker } from "./checks-picker";
import { rowsChecksCannotUse } from "@/lib/datasets/check-rows";
import { proposeChecks, type DatasetCheck, type DatasetCheckKind } from "@/lib/datasets/checks";
import { Section } from "./section";

/** Up to three non-empty sample values per column. */
function columnSamples(table: ImportTable): string[][] {
  return table.columns.map((_, j) => {
    const out: string[] = [];
    for (let i = 0; i < table.rows.length && i < 1000 && out.length < 3; i++) {
      const v = table.rows[i][j];
      if (v.trim() !== "") out.push(v);
    }
    return out;
  });
}

/** The assignment of a column after its role changed, with a default name when the role needs one. */
function withRole(a: ColumnAssignment, role: ColumnRole, templateVariables: readonly string[]): ColumnAssignment {
  if (role === "actual_output")
    return { column: a.column, role, candidate: a.candidate || outputCandidateName(a.column) || normalizeName(a.column).replace(/_/g, "-") || "recorded" };
  if (role === "variable") {
    const n = normalizeName(a.column).replace(/^(var|variable)_/, "");
    return { column: a.column, role, variable: a.variable || templateVariables.find((v) => normalizeName(v) === n) || n || a.column };
  }
  return { column: a.column, role };
}

/**
 * Map and preview (issue 3, step 2): column roles, the first mapped rows, rows with problems
 * (editable cells, Exclude), the redaction preview, and Save. Everything is computed in the
 * browser from the parsed table while the user works; Save sends only the choices, and the server
 * parses the stored upload again and re-validates them.
 */
export function MapPreview({
  systemId,
  uploadId,
  sheet,
  headerRow,
  table,
  templateVariables,
  existing,
  initial,
}: {
  systemId: string;
  uploadId: number;
  sheet: string | null;
  /** The header's line or sheet row when it is not the first row; 0 = the first row. */
  headerRow: number;
  table: ImportTable;
  templateVariables: string[];
  existing: { name: string; latestVersion: number; redaction: RedactionSettings }[];
  /** `checks`: the source version's checks when correcting a version (else the proposal). */
  initial: { name: string; mapping: ColumnMapping; corrections: Corrections; excludedRows: number[]; redaction: RedactionSettings; checks?: DatasetCheck[] };
}) {
  const router = useRouter();
  const toast = useToast();
  const [choices, setChoices] = useState<PreviewChoices>({ mapping: initial.mapping, corrections: initial.corrections, excludedRows: initial.excludedRows });
  const [name, setName] = useState(initial.name);
  // Redaction settings: the dataset's (its latest version's) until the user changes them here.
  const [redactionOn, setRedactionOn] = useState(initial.redaction.enabled);
  const [keepText, setKeepText] = useState(initial.redaction.keep.join("\n"));
  const [redactionTouched, setRedactionTouched] = useState(false);
  const keep = useMemo(() => parseKeepList(keepText), [keepText]);
  const keepProblems = redactionOn ? keepListProblems(keep) : [];
  const redaction: RedactionSettings = useMemo(() => ({ enabled: redactionOn, keep: redactionOn ? keep : [] }), [redactionOn, keep]);
  const inherited = existing.find((d) => d.name === name.trim()) ?? null;
  const onName = (value: string) => {
    setName(value);
    if (redactionTouched) return;
    const from = existing.find((d) => d.name === value.trim())?.redaction ?? DEFAULT_REDACTION;
    setRedactionOn(from.enabled);
    setKeepText(from.keep.join("\n"));
  };
  const [error, setError] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | undefined>();
  const [pending, startTransition] = useTransition();
  const samples = useMemo(() => columnSamples(table), [table]);
  const withRedaction = useMemo(() => ({ ...choices, redaction }), [choices, redaction]);
  const deferred = useDeferredValue(withRedaction);
  const analysis = useMemo(() => analysePreview(table, deferred, templateVariables), [table, deferred, templateVariables]);
  const stale = deferred !== withRedaction;

  const setAssignment = (i: number, a: ColumnAssignment) => setChoices((c) => ({ ...c, mapping: c.mapping.map((x, k) => (k === i ? a : x)) }));
  const mappingErrors = analysis.mappingProblems.filter((p) => p.severity === "error");
  const generalProblems = analysis.mappingProblems.filter((p) => p.column === undefined);
  const columnProblems = analysis.mappingProblems.filter((p) => p.column !== undefined);
  const showCaseId = choices.mapping.some((a) => a.role === "case_id");
  const redacted = Object.values(analysis.redaction.totals).reduce((a, b) => a + b, 0);
  const fileProblems = table.problems;
  // Checks with the data: the proposal follows the mapping until the user ticks or unticks one.
  const expectedColumn = table.columns.indexOf(choices.mapping.find((a) => a.role === "expected")?.column ?? "\u0000");
  const checkOptions = useMemo(
    () => proposeChecks(choices.mapping, expectedColumn < 0 ? [] : table.rows.slice(0, 20).map((r) => r[expectedColumn] ?? "")),
    [choices.mapping, table, expectedColumn],
  );
  const [pickedChecks, setPickedChecks] = useState<Set<DatasetCheckKind> | null>(initial.checks ? new Set(initial.checks.map((c) => c.kind)) : null);
  const chosenChecks = useMemo(() => {
    const offered = new Set(checkOptions.map((o) => o.check.kind));
    const base = pickedChecks ?? new Set(checkOptions.filter((o) => o.proposed).map((o) => o.check.kind));
    return new Set([...base].filter((k) => offered.has(k)));
  }, [checkOptions, pickedChecks]);
  const checks: DatasetCheck[] = checkOptions.filter((o) => chosenChecks.has(o.check.kind)).map((o) => o.check);
  // Rows the ticked checks cannot use: Use a dataset would refuse them, so name them now.
  const drafts = analysis.result.drafts;
  const checkProblems = useMemo(
    () =>
      rowsChecksCannotUse(
        checkOptions.filter((o) => chosenChecks.has(o.check.kind)).map((o) => o.check),
        drafts.map((d) => ({ row: d.rowNumber, expected: d.content.expected, expectedToolNames: d.expectedToolNames })),
      ),
    [chosenChecks, checkOptions, drafts],
  );

  const save = () =>
    startTransition(async () => {
      setError(null);
      setNameError(undefined);
      const r = await saveDatasetAction({
        systemId,
        uploadId,
        sheet: sheet ?? undefined,
        headerRow,
        name,
        mapping: choices.mapping,
        corrections: choices.corrections,
        excludedRows: choices.excludedRows,
        redaction,
        checks,
      });
      if (r.ok) {
        toast(`Saved ${name.trim()} version ${r.data.version}`);
        router.push(r.data.href);
      } else {
        setError(r.error.message);
        setNameError(r.error.fieldErrors?.name);
      }
    });

  return (
    <div className="grid items-start gap-4 xl:grid-cols-[minmax(0,1fr)_340px]">
      <div className="flex min-w-0 flex-col gap-4">
        {fileProblems.length > 0 ? (
          <Section title="While reading the file" description="These do not block anything; check that the columns came out as you expect.">
            <ul className="flex flex-col gap-1.5 px-4 py-3">
              {fileProblems.slice(0, 20).map((p, i) => (
                <li key={i}>
                  <ProblemLine problem={p} />
                </li>
              ))}
              {fileProblems.length > 20 ? <li className="text-xs text-slate-500">… and {fileProblems.length - 20} more.</li> : null}
            </ul>
          </Section>
        ) : null}

        <Section
          id="columns"
          title={`Columns (${table.columns.length})`}
          description={
            <>
              Roles are suggested from the column names; change any of them. Columns without a role are kept as extra columns.
              {templateVariables.length > 0 ? <> The prompt templates use {templateVariables.map((v) => `{{${v}}}`).join(", ")}.</> : null}
            </>
          }
        >
          {generalProblems.length > 0 ? (
            <ul aria-label="Mapping problems" className="flex flex-col gap-1.5 border-b border-slate-100 px-4 py-3">
              {generalProblems.map((p, i) => (
                <li key={i}>
                  <ProblemLine problem={p} />
                </li>
              ))}
            </ul>
          ) : null}
          <ColumnsEditor
            mapping={choices.mapping}
            samples={samples}
            problems={columnProblems}
            onRole={(i, role) => setAssignment(i, withRole(choices.mapping[i], role, templateVariables))}
            onName={(i, value) => {
              const a = choices.mapping[i];
              setAssignment(i, a.role === "actual_output" ? { ...a, candidate: value } : { ...a, variable: value });
            }}
          />
        </Section>

        <Section
          id="checks"
          title="Checks with the data"
          description="The checks every case made from this dataset gets (saved with the version). Proposed from the column roles; recorded answers are compared exactly and case-sensitively unless you choose otherwise."
        >
          <ChecksPicker
            options={checkOptions}
            problems={checkProblems}
            chosen={chosenChecks}
            onToggle={(kind, on) => {
              const next = new Set(chosenChecks);
              if (on) next.add(kind);
              else next.delete(kind);
              setPickedChecks(next);
            }}
          />
        </Section>

        <Section
          id="preview"
          title="Preview"
          description={
            analysis.firstDrafts.length === analysis.result.drafts.length
              ? `All ${analysis.result.drafts.length.toLocaleString("en-US")} mapped row${analysis.result.drafts.length === 1 ? "" : "s"}, as the cases they would become.`
              : `The first ${analysis.firstDrafts.length} of ${analysis.result.drafts.length.toLocaleString("en-US")} mapped rows, as the cases they would become.`
          }
          className={stale ? "opacity-70" : ""}
        >
          <MappedRowsPreview drafts={analysis.firstDrafts} showCaseId={showCaseId} />
        </Section>

        <Section
          id="problems"
          title="Rows with problems"
          description="Rows with errors (no input or expected result, a history or variables cell that cannot be read, a repeated case ID) are blocked: correct the cell, or exclude the row. Corrections are saved with the version."
          className={stale ? "opacity-70" : ""}
        >
          <ProblemRows
            rows={analysis.problemRows}
            corrections={choices.corrections}
            excludedRows={choices.excludedRows}
            blockedByMapping={analysis.mappingProblems.some((p) => p.code === "no_input_column" || p.code === "no_expected_column")}
            onEdit={(row, column, value) => setChoices((c) => ({ ...c, corrections: withCorrection(table, c.corrections, row, column, value) }))}
            onExclude={(row, on) =>
              setChoices((c) => ({
                ...c,
                excludedRows: on ? [...new Set([...c.excludedRows, row])].sort((a, b) => a - b) : c.excludedRows.filter((r) => r !== row),
              }))
            }
            onExcludeBlocked={() =>
              setChoices((c) => ({ ...c, excludedRows: [...new Set([...c.excludedRows, ...analysis.result.blockedRows])].sort((a, b) => a - b) }))
            }
          />
        </Section>

        <Section
          id="redaction"
          title="Redaction preview"
          description="Personal data is replaced in every column when you save (unless redaction is off or the value is on the keep-list); the original file is kept as uploaded."
          className={stale ? "opacity-70" : ""}
        >
          <RedactionSettingsForm
            enabled={redactionOn}
            keepText={keepText}
            problems={keepProblems}
            inherited={inherited && !redactionTouched ? inherited.name : null}
            onEnabled={(on) => {
              setRedactionTouched(true);
              setRedactionOn(on);
            }}
            onKeepText={(text) => {
              setRedactionTouched(true);
              setKeepText(text);
            }}
          />
          <RedactionView report={analysis.redaction} saved={false} />
        </Section>
      </div>

      <SavePanel
        name={name}
        onName={onName}
        existing={existing}
        summary={{
          rows: table.rows.length,
          excluded: analysis.result.excludedRows.length,
          blocked: analysis.result.blockedRows.length,
          warnings: analysis.warnings,
          redacted: redactionOn ? redacted : null,
          corrected: Object.keys(choices.corrections).length,
        }}
        blockedReason={
          mappingErrors.length > 0
            ? `Fix the column roles first: ${mappingErrors.map((p) => p.message).join(" ")}`
            : keepProblems.length > 0
              ? `Fix the keep-list first: ${keepProblems.join(" ")}`
              : null
        }
        pending={pending}
        error={error}
        nameError={nameError}
        onSave={save}
        onCancel={() => startTransition(async () => void (await discardUploadAction({ systemId, uploadId })))}
      />
    </div>
  );
}
