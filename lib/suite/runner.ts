/**
 * The suite runner (issue #6 runner contract; behaviour reference: shared/seeds/004). Runs the
 * selected cases — one at a time by default, or a few at once — and returns one result per case.
 *
 * Per case, in order:
 * 1. `onCaseStart(case)` (presentation hook);
 * 2. `setup()` when the case has one — outside the timeout; a throw is a `setup:` error and the
 *    case does not run;
 * 3. the agent run (the trial engine of benches, lib/runtime `runModelTrial`, issue #20), under the
 *    case's timeout (`timeoutSeconds`, else the runner's default, 120 s), which the trial engine
 *    enforces: when it expires the case is `timedOut` and the trial ends even if the model or a tool
 *    ignores its abort signal — keeping the trace so far, including the tool calls whose tools were
 *    still running; the result's trial fields are a projection of the record (`caseTrialOutcome`);
 * 4. the checks, after the agent and outside its timeout (the reference contract: evaluators run
 *    after generation with a deadline of their own, so a slow evaluator is an evaluator error, never
 *    `timedOut`); the checker's signal — which the judge's model calls honour — is aborted after a
 *    deadline equal to the case's timeout, which ends as a check error;
 * 5. `teardown(context, result)` whenever setup completed (or there is no setup) — also after a
 *    failure, an error or a timeout; a throw is a `teardown:` error;
 * 6. `onCaseEnd(case, result, detail)`.
 * `durationSeconds` covers setup and teardown. Hooks are for presentation only: a hook that throws
 * (or returns a promise: hooks are synchronous) is recorded as a `hook:` error on that case and the
 * suite goes on. The runner itself performs no I/O.
 *
 * Cancelling (`signal`) stops the suite: running cases are aborted (error `run: cancelled`, teardown
 * still runs), and every case not started is reported with `skipped: true` (and `passed: false`),
 * so the results account for every selected case. `onCaseEnd` is also called for skipped cases.
 */
import type { CheckResult } from "@/lib/evaluators/types";
import type { TrialRecord } from "@/lib/runtime/trial-record";
import type { AgentRunner, RunEvent } from "./agent";
import type { CaseChecker, CaseVerdicts } from "./checks";
import { casePassed, skippedResult, summarize } from "./result";
import { caseTrialOutcome, type CaseTrialOutcome } from "./trial-outcome";
import type { CaseResult, SuiteCase, SuiteResult } from "./types";

/** The runner's default per-case timeout, in seconds. */
export const DEFAULT_TIMEOUT_SECONDS = 120;

/**
 * What `onCaseEnd` gets besides the result: the trial — the agent's record (when the case timed out
 * or was cancelled, the trace so far, with the calls in flight as its `unfinished` last step); null
 * when the case did not run (setup failed, or the agent threw) — and every check result.
 */
export interface CaseDetail {
  trial: TrialRecord | null;
  checks: CheckResult[];
}

/** Options of {@link runSuite}. */
export interface RunSuiteOptions {
  /** Runs a case through the model (see `createAgent`); ends by the case's timeout and on the suite's cancellation. */
  agent: AgentRunner;
  /** Scores a trial (see `createChecker`). */
  checker: CaseChecker;
  /** Per-case timeout when the case sets none, in seconds. Default {@link DEFAULT_TIMEOUT_SECONDS}. */
  defaultTimeoutSeconds?: number;
  /** Cases run at once (≥ 1). Default 1: sequential. Results keep the selection order either way. */
  concurrency?: number;
  /** Cancels the suite (Ctrl-C). */
  signal?: AbortSignal;
  /** Clock in ms (durations). Default `performance.now`. */
  now?: () => number;
  /** Session id maker (one per case run). Default `crypto.randomUUID`. */
  newSessionId?: () => string;
  /** Presentation hook: before a case's setup. */
  onCaseStart?: (c: SuiteCase) => void;
  /** Presentation hook: after a case (including skipped ones), with its final result. */
  onCaseEnd?: (c: SuiteCase, result: CaseResult, detail: CaseDetail) => void;
  /** Presentation hook: every run event of a case (one per finished model call). */
  onRunEvent?: (c: SuiteCase, event: RunEvent) => void;
}

function messageOf(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  return typeof e === "string"
    ? e
    : (() => {
        try {
          return JSON.stringify(e) ?? String(e);
        } catch {
          return String(e);
        }
      })();
}

/** Calls a presentation hook; a throw or a returned promise becomes a `hook:` error message. */
function callHook(name: string, fn: (() => unknown) | undefined, errors: string[]): void {
  if (!fn) return;
  try {
    const out = fn();
    if (out && typeof (out as PromiseLike<unknown>).then === "function") {
      (out as Promise<unknown>).then(undefined, () => undefined);
      errors.push(`hook: ${name} returned a promise; hooks must be synchronous (presentation only)`);
    }
  } catch (e) {
    errors.push(`hook: ${name} threw: ${messageOf(e)}`);
  }
}

/** Lets a running case hear the suite's cancellation through one listener on the suite signal (not one per case). */
interface CancelHub {
  readonly cancelled: boolean;
  reason: unknown;
  /** Registers a callback run on cancellation; returns its removal. */
  on(fn: () => void): () => void;
}

function cancelHub(signal: AbortSignal | undefined): CancelHub & { dispose(): void } {
  const callbacks = new Set<() => void>();
  const onAbort = () => {
    for (const fn of [...callbacks]) fn();
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  return {
    get cancelled() {
      return signal?.aborted ?? false;
    },
    get reason() {
      return signal?.reason;
    },
    on(fn) {
      callbacks.add(fn);
      return () => callbacks.delete(fn);
    },
    dispose() {
      signal?.removeEventListener("abort", onAbort);
      callbacks.clear();
    },
  };
}

/** How a {@link guarded} call ended: its value or error, unless the suite was cancelled. */
type Guarded<T> = ({ value: T } | { error: unknown } | Record<never, never>) & { cancelled: boolean };

/**
 * Runs the checks' `fn` with a signal aborted on the suite's cancellation and after `seconds` (with
 * a `TimeoutError` carrying `message`). Cancellation stops waiting; the deadline only aborts the
 * signal and the result is awaited (an evaluator has its own deadline and must not be cut short by
 * the case's; the judge's model calls honour the signal).
 */
async function guarded<T>(hub: CancelHub, seconds: number, message: string, fn: (signal: AbortSignal) => Promise<T>): Promise<Guarded<T>> {
  const controller = new AbortController();
  let cancelled = false;
  let stop: (reason: unknown) => void = () => {};
  const stopped = new Promise<never>((_, reject) => {
    stop = reject;
  });
  stopped.catch(() => undefined);
  const onCancel = () => {
    cancelled = true;
    controller.abort(hub.reason);
    stop(hub.reason);
  };
  const offCancel = hub.on(onCancel);
  if (hub.cancelled) onCancel();
  const timer = setTimeout(() => controller.abort(new DOMException(message, "TimeoutError")), Math.min(seconds * 1000, 2_147_483_647));
  try {
    const work = cancelled ? stopped : (async () => fn(controller.signal))();
    work.catch(() => undefined);
    const value = await Promise.race([work, stopped]);
    return { value, cancelled: false };
  } catch (error) {
    return cancelled ? { cancelled } : { error, cancelled: false };
  } finally {
    clearTimeout(timer);
    offCancel();
  }
}

/** Runs the agent on a signal aborted by the suite's cancellation; a throw (a broken agent) is a `run:` error. */
async function runAgent(hub: CancelHub, run: (signal: AbortSignal) => Promise<TrialRecord>, errors: string[]): Promise<TrialRecord | null> {
  const controller = new AbortController();
  const off = hub.on(() => controller.abort(hub.reason));
  if (hub.cancelled) controller.abort(hub.reason);
  try {
    return await run(controller.signal);
  } catch (e) {
    errors.push(`run: ${messageOf(e)}`);
    return null;
  } finally {
    off();
  }
}

async function runOne(c: SuiteCase, o: RunSuiteOptions, now: () => number, hub: CancelHub): Promise<CaseResult> {
  const started = now();
  const errors: string[] = [];
  const sessionId = (o.newSessionId ?? (() => globalThis.crypto.randomUUID()))();
  callHook("onCaseStart", o.onCaseStart && (() => o.onCaseStart!(c)), errors);

  let context: unknown;
  let setupDone = true;
  if (c.setup) {
    try {
      context = await c.setup();
    } catch (e) {
      setupDone = false;
      errors.push(`setup: ${messageOf(e)}`);
    }
  }

  let trial: TrialRecord | null = null;
  let outcome: CaseTrialOutcome | null = null;
  let verdicts: CaseVerdicts | null = null;
  if (setupDone) {
    const timeoutSeconds = c.timeoutSeconds ?? o.defaultTimeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
    const onEvent = o.onRunEvent && ((event: RunEvent) => callHook("onRunEvent", () => o.onRunEvent!(c, event), errors));
    // 1. The agent, under the case timeout (which the trial engine enforces).
    trial = await runAgent(hub, (abortSignal) => o.agent(c, { abortSignal, timeoutMs: timeoutSeconds * 1000, ...(onEvent ? { onEvent } : {}) }), errors);
    outcome = trial && caseTrialOutcome(trial, timeoutSeconds);
    // 2. The checks, after the agent and outside its timeout: evaluators keep their own deadlines;
    // the judge's model calls are aborted after a deadline equal to the case timeout.
    const done = trial;
    let cancelled = false;
    if (done && outcome?.checkable) {
      const checked = await guarded(hub, timeoutSeconds, `the checks did not finish within ${timeoutSeconds} s`, (signal) =>
        o.checker(c, done, { abortSignal: signal }),
      );
      cancelled = checked.cancelled;
      if (!cancelled && "error" in checked) errors.push(`run: ${messageOf(checked.error)}`);
      if (!cancelled && "value" in checked) verdicts = checked.value;
    }
    if (outcome?.error) errors.push(outcome.error);
    else if (cancelled) errors.push("run: cancelled");
  }

  const v = verdicts as CaseVerdicts | null;
  if (v) errors.push(...v.errors);
  const result: CaseResult = {
    name: c.id,
    tags: [...c.labels],
    sessionId,
    durationSeconds: 0,
    judgePassed: v?.judgePassed ?? null,
    judgeReason: v?.judgeReason ?? null,
    judgeScore: v?.judgeScore ?? null,
    reliabilityPassed: v?.reliabilityPassed ?? null,
    evaluatorPassed: v?.evaluatorPassed ?? null,
    evaluatorScore: v?.evaluatorScore ?? null,
    evaluatorMessage: v?.evaluatorMessage ?? null,
    evaluatorDetails: v?.evaluatorDetails ?? null,
    output: outcome ? outcome.output : null,
    toolsCalled: outcome ? outcome.toolsCalled : [],
    timedOut: outcome ? outcome.timedOut : false,
    skipped: false,
    error: null,
    passed: false,
  };
  const finish = () => {
    result.error = errors.length > 0 ? errors.join("; ") : null;
    result.passed = casePassed(result);
    result.durationSeconds = (now() - started) / 1000;
  };
  finish();
  if (setupDone && c.teardown) {
    try {
      await c.teardown(context, result);
    } catch (e) {
      errors.push(`teardown: ${messageOf(e)}`);
    }
    finish();
  }
  const detail: CaseDetail = { trial, checks: v?.checks ?? [] };
  const before = errors.length;
  callHook("onCaseEnd", o.onCaseEnd && (() => o.onCaseEnd!(c, result, detail)), errors);
  if (errors.length > before) {
    const duration = result.durationSeconds;
    finish();
    result.durationSeconds = duration;
  }
  return result;
}

/**
 * Runs cases and aggregates their results.
 * @param cases the selected cases, in order
 * @param options agent, checker, timeouts, concurrency, cancellation, clock, hooks
 * @returns one result per case, in the given order (skipped ones included), with `total`,
 *   `passed`, `failed` and `status` (`PASS` only when every case passed; an empty list is `FAIL`).
 *   Never rejects because of a case: every failure is recorded on its case.
 */
export async function runSuite(cases: readonly SuiteCase[], options: RunSuiteOptions): Promise<SuiteResult> {
  const now = options.now ?? (() => performance.now());
  const results: (CaseResult | undefined)[] = new Array(cases.length).fill(undefined);
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  let next = 0;
  const hub = cancelHub(options.signal);
  const worker = async () => {
    while (next < cases.length && !options.signal?.aborted) {
      const i = next++;
      results[i] = await runOne(cases[i], options, now, hub);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, cases.length) }, worker));
  } finally {
    hub.dispose();
  }
  for (let i = 0; i < cases.length; i++) {
    if (results[i]) continue;
    const r = skippedResult(cases[i]);
    const errors: string[] = [];
    callHook("onCaseEnd", options.onCaseEnd && (() => options.onCaseEnd!(cases[i], r, { trial: null, checks: [] })), errors);
    if (errors.length > 0) r.error = errors.join("; ");
    results[i] = r;
  }
  return summarize(results as CaseResult[]);
}
