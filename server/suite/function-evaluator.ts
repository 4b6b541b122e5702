/**
 * Runs `evaluate` functions of eval modules (issue #6; security review) in the evaluator sandbox
 * of lib/evaluators: QuickJS compiled to WebAssembly, in a worker thread. What runs is the script
 * compiled for the function (server/suite/evaluate-bundle.ts), whose hash the release records.
 *
 * - No platform secrets and no outbound access: QuickJS has no `process`, environment, file
 *   system, `fetch`, sockets, `require` or module loader; only ECMAScript built-ins and a captured
 *   `console`. The trial goes in as JSON and the verdict comes out as JSON.
 * - A fresh context per call (no state carried from one trial to the next), a memory cap and a
 *   deadline per call (default 5 s) that starts when the call reaches the sandbox: neither the
 *   thread's cold start nor waiting behind other calls counts against it. A call stuck past its
 *   deadline gets its thread terminated.
 * - A crash (throw, rejected promise), a timeout, exceeding the memory cap, a result that is not
 *   JSON, or a sandbox that cannot start is a failure outcome, which lib/suite turns into an
 *   evaluator infrastructure error — never a model failure.
 * Calls queue and run one at a time on the sandbox thread.
 */
import { describeSandboxFailure } from "@/lib/evaluators/custom";
import { createSandbox, type CustomEvaluatorSandbox } from "@/lib/evaluators/sandbox";
import type { FunctionEvaluatorOutcome, FunctionEvaluatorRunner } from "@/lib/suite/checks";

/** Deadline of one `evaluate` call, in ms (the reference contract: five seconds). */
export const FUNCTION_EVALUATOR_TIMEOUT_MS = 5_000;
/** Memory cap of the sandbox runtime for `evaluate` functions, in bytes (64 MiB: bundled helpers and packages load per call). */
export const FUNCTION_EVALUATOR_MEMORY_BYTES = 64 * 1024 * 1024;

/**
 * Starts the sandbox `evaluate` functions run in (worker thread, falling back to the caller's
 * thread when a thread cannot start).
 * @throws when QuickJS cannot be loaded
 */
export function createFunctionSandbox(): Promise<CustomEvaluatorSandbox> {
  return createSandbox({ memoryLimitBytes: FUNCTION_EVALUATOR_MEMORY_BYTES, timeoutMs: FUNCTION_EVALUATOR_TIMEOUT_MS });
}

/** Options of {@link FunctionEvaluatorPool}. */
export interface FunctionEvaluatorPoolOptions {
  /** The compiled scripts by SHA-256 (`CompiledBenchmark.evaluateCode`). */
  code: ReadonlyMap<string, string>;
  /** Deadline per call in ms. Default {@link FUNCTION_EVALUATOR_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Starts the sandbox on first use. Default {@link createFunctionSandbox}. */
  sandbox?: () => Promise<CustomEvaluatorSandbox>;
}

/** Runs compiled `evaluate` functions in one sandbox, started on first use. */
export class FunctionEvaluatorPool {
  private sandbox: Promise<CustomEvaluatorSandbox> | null = null;
  private closed = false;

  constructor(private readonly options: FunctionEvaluatorPoolOptions) {}

  /** The runner to pass to lib/suite `createChecker`. Never rejects. */
  readonly run: FunctionEvaluatorRunner = async (ref, input): Promise<FunctionEvaluatorOutcome> => {
    if (this.closed) return { ok: false, failure: "host", message: "the evaluator sandbox is closed" };
    const code = this.options.code.get(ref.sha256);
    if (code === undefined) return { ok: false, failure: "load", message: "no compiled script for this function in the release (compile again)" };
    let box: CustomEvaluatorSandbox;
    try {
      box = await (this.sandbox ??= (this.options.sandbox ?? createFunctionSandbox)());
    } catch (e) {
      this.sandbox = null;
      return { ok: false, failure: "host", message: `the evaluator sandbox could not start: ${(e as Error).message}` };
    }
    // The deadline is the sandbox's: it starts when the call is dispatched to QuickJS.
    const r = await box.run(code, input, { timeoutMs: this.options.timeoutMs ?? FUNCTION_EVALUATOR_TIMEOUT_MS });
    if (r.ok) return { ok: true, value: r.value, durationMs: r.durationMs, logs: r.logs };
    return { ok: false, failure: r.failure, message: describeSandboxFailure(r), durationMs: r.durationMs, logs: r.logs };
  };

  /** Stops the sandbox; later calls fail with a `host` failure. */
  async close(): Promise<void> {
    this.closed = true;
    const box = this.sandbox;
    this.sandbox = null;
    if (box)
      await box.then(
        (b) => b.dispose(),
        () => undefined,
      );
  }
}
