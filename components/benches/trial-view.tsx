import Link from "next/link";
import { TrialAuthors } from "@/components/audit/trial-authors";
import type { CheckRecord } from "@/lib/bench/types";
import type { ReferenceTrial } from "@/db/queries/bench-matrix";
import type { LastBenchReference } from "@/lib/bench/recommend";
import { decodeContent } from "@/lib/library/content-codec";
import { CheckResults } from "@/components/evaluators/evaluators-editor";
import { Badge } from "@/components/ui/badge";
import { CloseOnEscape } from "./close-on-escape";
import { FocusOnOpen } from "@/components/ui/focus-on-open";
import { FocusReturn } from "@/components/ui/focus-return";
import { TrialAttempts } from "./trial-attempts";
import { plannedRepeat, trialRepeatLabel, type RepeatTrial } from "@/lib/bench/rerun/repeat-label";
import { trialRegressions } from "@/lib/bench/evidence/trial-regressions";
import type { StatusedRegression } from "@/lib/bench/evidence/resolved";

type TrialRow = Record<string, unknown>;

function Block({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div>
      <h3 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{title}</h3>
      <div className="mt-1">{children}</div>
    </div>
  );
}

const pre = "max-h-72 overflow-auto rounded-md bg-slate-50 p-2 font-mono text-xs whitespace-pre-wrap break-words";

function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content.map((p) => (typeof p === "object" && p && "text" in p ? String((p as { text: unknown }).text) : JSON.stringify(p))).join("\n");
  return JSON.stringify(content, null, 2);
}

/**
 * One trial: the case, the rendered prompt and conversation, tool calls and results, the output,
 * and each check with its reason; usage, latency and cost.
 */
export function TrialView({
  trial,
  closeHref,
  siblings,
  references = [],
  regressed = [],
  lastBench = null,
  attempts,
}: {
  trial: TrialRow;
  closeHref: string;
  /** The case's trials of this candidate (this one included), with how a rerun added them. */
  siblings: (RepeatTrial & { href: string })[];
  /** The baseline's trial of the same case and the last bench's, shown beside this one. */
  references?: (ReferenceTrial & { href: string })[];
  /** Checks of this case that this candidate broke (passed for the reference, fail in its repeats), with their status once known. */
  regressed?: StatusedRegression[];
  lastBench?: LastBenchReference | null;
  /** Reruns of this errored trial, or the errored trial this one reruns (issue #16 §3). */
  attempts?: React.ComponentProps<typeof TrialAttempts>;
}) {
  const content = decodeContent(String(trial.input ?? ""), String(trial.expected ?? ""), String(trial.details ?? "{}"));
  const record = trial.record
    ? (JSON.parse(String(trial.record)) as {
        renderedMessages?: { role: string; content: unknown }[];
        steps?: {
          text: string;
          toolCalls: { toolName: string; input: unknown }[];
          toolResults: { toolName: string; output: unknown }[];
          finishReason: string;
        }[];
        toolCalls?: unknown[];
        attempts?: number;
        calls?: number;
        waitMs?: number;
        wallMs?: number;
      })
    : null;
  const checks = trial.checks ? (JSON.parse(String(trial.checks)) as CheckRecord[]) : [];
  const self: RepeatTrial = {
    id: Number(trial.id),
    repeat: Number(trial.repeat),
    rerun: (trial.rerun as RepeatTrial["rerun"]) ?? null,
    rerunOf: trial.rerun_of == null ? null : Number(trial.rerun_of),
  };
  const origin = { repeat: plannedRepeat(self, siblings.some((s) => s.id === self.id) ? siblings : [...siblings, self]) };
  const checkErrors = checks.filter((c) => c.verdict === "error").length;
  // Issue #16: a passing repeat, or a regression a confirm round cleared, is not "fails here".
  const split = trialRegressions(regressed, checks);
  return (
    <aside
      id="trial"
      aria-label="Trial"
      tabIndex={-1}
      className="flex outline-none flex-col gap-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm xl:sticky xl:top-4 xl:max-h-[calc(100vh-2rem)] xl:overflow-auto"
    >
      <div className="flex items-start justify-between gap-2">
        <div>
          <h2 className="text-sm font-semibold">
            Trial #{String(trial.id)} · <code>{String(trial.caseKey)}</code>
          </h2>
          <TrialAuthors
            caseRevision={trial.caseRevisionNumber == null ? null : Number(trial.caseRevisionNumber)}
            caseAuthor={trial.caseAuthorEmail == null ? null : String(trial.caseAuthorEmail)}
            launchedBy={trial.launchedByEmail == null ? null : String(trial.launchedByEmail)}
          />
          <p className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-slate-600">
            <span>{String(trial.candidateLabel)}</span>
            <Badge tone={trial.status === "done" ? "green" : trial.status === "error" ? "red" : "slate"}>{String(trial.status)}</Badge>
            {checkErrors ? (
              <Badge tone="amber">
                {checkErrors} check error{checkErrors > 1 ? "s" : ""}
              </Badge>
            ) : null}
            {/* An error rerun is named by its errored trial's repeat, not as a new repeat (issue #16 §3). */}
            <span data-testid="trial-repeat">repeat {origin.repeat}</span>
            {/* Trials a rerun inside the bench added (issue #16 §3): a confirm round's repeat is evidence for the regression status only. */}
            {trial.rerun === "confirm" ? (
              <Badge tone="slate" title="Added by Confirm suspected regressions: evidence for the regression's status, not counted in the rates">
                confirm rerun
              </Badge>
            ) : trial.rerun === "error" ? (
              <Badge tone="slate" title="Added by Rerun errored trials: stands in for the errored attempt">
                {`rerun of errored repeat ${origin.repeat}`}
              </Badge>
            ) : null}
            {trial.latency_ms != null ? (
              <span title="The model calls' own time, summed over the trial's calls: not the tool rounds, nor waits for a provider slot or a busy worker">
                · {String(trial.latency_ms)} ms{record?.calls && record.calls > 1 ? ` over ${record.calls} model calls` : ""}
              </span>
            ) : null}
            {record?.waitMs && record.waitMs >= 1 ? (
              <span title="Time the calls waited for a slot of the provider's concurrency limit">· waited {Math.round(record.waitMs)} ms for the provider</span>
            ) : null}
            {record?.wallMs != null && trial.latency_ms != null && record.wallMs - Number(trial.latency_ms) >= 50 ? (
              <span title="The whole trial, start to end">· {Math.round(record.wallMs)} ms in all</span>
            ) : null}
            {record?.attempts && record.attempts > 1 ? (
              <span title="Rate-limit and server errors and unreadable replies are retried with backoff; the latency is the last attempt's">
                · {record.attempts} attempts
              </span>
            ) : null}
            {trial.input_tokens != null ? (
              <span>
                · {String(trial.input_tokens)} in / {String(trial.output_tokens)} out tokens
              </span>
            ) : null}
            {trial.cost_usd != null ? <span>· ${Number(trial.cost_usd).toFixed(5)}</span> : null}
            {trial.finish_reason ? <span>· finish: {String(trial.finish_reason)}</span> : null}
          </p>
          {siblings.length > 1 ? (
            <p className="mt-1 flex gap-1 text-xs">
              Repeats:
              {siblings.map((s) => {
                // "1 (error rerun)" beside "1 (errored, rerun)": the attempts of one repeat, not repeats 1 and 2.
                const name = trialRepeatLabel(s, siblings).replace(/^repeat /, "");
                return s.id === trial.id ? (
                  <span key={s.id} className="font-semibold">
                    {name}
                  </span>
                ) : (
                  <Link scroll={false} key={s.id} href={s.href} className="text-indigo-700 hover:underline">
                    {name}
                  </Link>
                );
              })}
            </p>
          ) : null}
          {attempts ? <TrialAttempts {...attempts} /> : null}
        </div>
        <Link scroll={false} href={closeHref} aria-label="Close trial" title="Close (Esc)" className="rounded p-1 text-slate-500 hover:bg-slate-100">
          ✕
        </Link>
        <CloseOnEscape href={closeHref} />
        <FocusOnOpen key={String(trial.id)} targetId="trial" />
        {/* Closed (Escape, ✕), the trial gives focus back to its matrix cell (see matrix-view's data-cell). */}
        <FocusReturn selector={`[data-cell="${String(trial.candidate_id)}|${String(trial.bench_case_id)}"]`} />
      </div>
      {trial.error ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {String(trial.error)}
        </p>
      ) : null}
      {trial.erasedAt ? <p className="text-sm text-amber-800">The case was removed; its saved details were erased. The scores stay.</p> : null}
      <Block title="Checks">
        {checks.length ? (
          <CheckResults
            results={checks.map((c) => ({
              kind: c.kind,
              label: c.label + (c.priority ? ` (${c.priority})` : ""),
              verdict: c.verdict,
              score: c.score,
              message: c.message,
            }))}
          />
        ) : (
          <p className="text-sm text-slate-500">No check ran.</p>
        )}
      </Block>
      {split.failsHere.length ? (
        <div role="note" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          <p className="font-medium">
            Regressed:{" "}
            {split.failsHere.length === 1 ? "this check passed before and fails here" : `${split.failsHere.length} checks passed before and fail here`}
          </p>
          <ul className="mt-1 list-disc pl-5 text-xs">
            {split.failsHere.map((r, i) => (
              <li key={i}>
                {r.label}
                {r.priority ? ` (${r.priority})` : ""} — passed{" "}
                {r.against === "baseline" ? "for the baseline" : `in the last bench${lastBench ? ` (#${lastBench.benchId}, ${lastBench.candidateLabel})` : ""}`}
                {r.outcome === "mixed" ? "; fails in some repeats" : ""}
                {r.advisory ? " (advisory: its judge is not calibrated, so it does not block)" : ""}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {split.passesHere.length ? (
        <p role="note" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-xs text-amber-900">
          Regressed in other repeats of this case, passes here: {split.passesHere.map((r) => r.label).join(", ")}.
        </p>
      ) : null}
      {split.cleared.length ? (
        <p role="note" className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-xs text-slate-700" data-testid="trial-cleared">
          Flaky — cleared: {split.cleared.map((r) => r.label).join(", ")} failed in a repeat, but a confirm round did not reproduce it; it does not block.
        </p>
      ) : null}
      {references.length ? (
        <Block title="Output, beside the reference">
          <div className="grid gap-2 md:grid-cols-2" data-testid="output-comparison">
            <div>
              <p className="mb-1 text-xs font-medium text-slate-700">This trial · {String(trial.candidateLabel)}</p>
              <pre className={pre}>{trial.output == null ? "—" : String(trial.output) || "(empty)"}</pre>
            </div>
            {references.map((r) => (
              <div key={`${r.role}-${r.trialId}`} data-testid="reference-output">
                <p className="mb-1 flex flex-wrap items-center gap-1 text-xs font-medium text-slate-700">
                  {r.role === "baseline" ? "Baseline" : `Last bench #${r.benchId}`} · {r.label}
                  <Link scroll={false} href={r.href} className="font-normal text-indigo-700 hover:underline">
                    trial #{r.trialId}
                  </Link>
                  <span className="font-normal text-slate-500">
                    {r.status === "done"
                      ? `${r.verdicts.passed} passed · ${r.verdicts.failed} failed${r.verdicts.error ? ` · ${r.verdicts.error} error` : ""}`
                      : r.status}
                  </span>
                </p>
                <pre className={pre}>{r.output == null ? (r.error ?? "—") : r.output || "(empty)"}</pre>
              </div>
            ))}
          </div>
        </Block>
      ) : (
        <Block title="Output">
          <pre className={pre}>{trial.output == null ? "—" : String(trial.output) || "(empty)"}</pre>
        </Block>
      )}
      <Block title="Expected result">
        <pre className={pre}>{content.expected || "—"}</pre>
      </Block>
      {record?.renderedMessages?.length ? (
        <Block title="Rendered prompt and conversation">
          <ol className="flex flex-col gap-1.5">
            {record.renderedMessages.map((m, i) => (
              <li key={i} className={pre}>
                <span className="font-semibold text-slate-500">{m.role}</span>
                {"\n"}
                {messageText(m.content)}
              </li>
            ))}
          </ol>
        </Block>
      ) : (
        <Block title="Input">
          <pre className={pre}>{content.input}</pre>
        </Block>
      )}
      {record?.steps?.some((s) => s.toolCalls.length) ? (
        <Block title="Tool calls and results">
          <ol className="flex flex-col gap-1.5">
            {record.steps.flatMap((s, si) =>
              s.toolCalls.map((c, ci) => (
                <li key={`${si}-${ci}`} className={pre}>
                  <span className="font-semibold">→ {c.toolName}</span>({JSON.stringify(c.input)}){"\n"}← {JSON.stringify(s.toolResults[ci]?.output ?? null)}
                </li>
              )),
            )}
          </ol>
        </Block>
      ) : record?.toolCalls?.length ? (
        <Block title="Recorded tool calls">
          <pre className={pre}>{JSON.stringify(record.toolCalls, null, 2)}</pre>
        </Block>
      ) : null}
    </aside>
  );
}
