/**
 * What a case's result takes from its trial (issue #20 "One trial engine": the suite's JSON is a
 * projection of the trial record that benches store too). Pure: the record in, the result's
 * trial fields out.
 */
import type { TrialRecord } from "@/lib/runtime/trial-record";
import type { CaseResult } from "./types";

/** The trial's part of a {@link CaseResult}, and whether the checks may judge it. */
export interface CaseTrialOutcome extends Pick<CaseResult, "output" | "toolsCalled" | "timedOut"> {
  /** The suite was cancelled while the case ran (the trial ended `aborted`). */
  cancelled: boolean;
  /** The run's error line (`run: …`), null when the trial finished. */
  error: string | null;
  /** The trial finished without error, so its checks run. */
  checkable: boolean;
}

/**
 * Projects a trial record onto a case result.
 * - finished: the record's output and tool calls;
 * - stopped by the engine's deadline (`stoppedBy: "timeout"`): `timedOut`, `run: timed out after N s`;
 * - stopped by the caller's signal (`stoppedBy: "abort"`, the suite's cancellation): `run: cancelled`;
 * - any other error (also a provider's own timeout, HTTP 408): `run: KIND: MESSAGE` (lib/runtime `classifyError`).
 * A trial that did not end (timeout, cancel) shows the text of its last finished step as `output`
 * (null when none finished), and every call the model asked for — also those whose tools were still
 * running (the record's `unfinished` step) — in `toolsCalled`.
 * @param trial the record from the trial engine (`runModelTrial`)
 * @param timeoutSeconds the case's timeout, for the message
 */
export function caseTrialOutcome(trial: TrialRecord, timeoutSeconds: number): CaseTrialOutcome {
  const stopped = trial.error ? trial.stoppedBy : undefined;
  const finished = trial.steps.filter((s) => !s.unfinished);
  let error: string | null = null;
  if (stopped === "timeout") error = `run: timed out after ${timeoutSeconds} s`;
  else if (stopped === "abort") error = "run: cancelled";
  else if (trial.error) error = `run: ${trial.error.kind}: ${trial.error.message}`;
  return {
    output: stopped ? (finished.length > 0 ? finished[finished.length - 1].text : null) : trial.output,
    toolsCalled: trial.toolCalls.map((x) => x.toolName),
    timedOut: stopped === "timeout",
    cancelled: stopped === "abort",
    error,
    checkable: !trial.error,
  };
}
