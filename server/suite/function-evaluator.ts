/**
 * Runs `evaluate` functions of eval modules (issue #6) in a worker thread:
 * - empty environment (`env: {}`: no API keys or other secrets reach evaluator code);
 * - resource limits (heap, stack);
 * - a deadline per call (default 5 s) after the module is loaded (loading has its own, longer
 *   deadline); on expiry the thread is terminated and a fresh one serves the next call;
 * - a crash (throw, rejected promise, the thread dying), a timeout, a module that cannot be loaded,
 *   a function that changed since compile, or a result that cannot be copied out is reported as a
 *   failure outcome, which lib/suite turns into an evaluator infrastructure error — never a model
 *   failure.
 * Calls queue and run one at a time on the thread.
 */
import path from "node:path";
import { Worker, type ResourceLimits } from "node:worker_threads";
import type { FunctionEvaluatorOutcome, FunctionEvaluatorRunner } from "@/lib/suite/checks";
import type { EvaluatorInput, FunctionEvaluatorRef } from "@/lib/suite/types";

/** Deadline of one `evaluate` call, in ms (issue #6: five seconds). */
export const FUNCTION_EVALUATOR_TIMEOUT_MS = 5_000;
/** Deadline for loading an eval module in the worker (TypeScript transform included), in ms. */
export const FUNCTION_EVALUATOR_LOAD_TIMEOUT_MS = 30_000;
/** Resource limits of the worker thread. */
export const FUNCTION_EVALUATOR_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 };

/** Options of {@link FunctionEvaluatorPool}. */
export interface FunctionEvaluatorPoolOptions {
  /** Folder of benchmark.config.ts: module paths in refs are relative to it. */
  root: string;
  /** Deadline per call in ms. Default {@link FUNCTION_EVALUATOR_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Deadline for loading a module in ms. Default {@link FUNCTION_EVALUATOR_LOAD_TIMEOUT_MS}. */
  loadTimeoutMs?: number;
  /** Worker resource limits. Default {@link FUNCTION_EVALUATOR_LIMITS}. */
  resourceLimits?: ResourceLimits;
}

interface Job {
  id: number;
  file: string;
  ref: FunctionEvaluatorRef;
  input: EvaluatorInput;
  resolve: (o: FunctionEvaluatorOutcome) => void;
}

type WorkerMessage = { id: number; phase?: "loaded"; ok?: boolean; value?: unknown; failure?: string; message?: string };

/** A worker thread (started on first use) running evaluate functions one at a time. */
export class FunctionEvaluatorPool {
  private worker: Worker | null = null;
  private queue: Job[] = [];
  private current: Job | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private callStarted = 0;
  private nextId = 1;
  private closed = false;
  /** Threads started so far (1 + restarts after a timeout or crash). */
  threadsStarted = 0;

  constructor(private readonly options: FunctionEvaluatorPoolOptions) {}

  /** The runner to pass to lib/suite `createChecker`. */
  readonly run: FunctionEvaluatorRunner = (ref, input) =>
    new Promise<FunctionEvaluatorOutcome>((resolve) => {
      if (this.closed) return resolve({ ok: false, failure: "host", message: "the evaluator worker pool is closed" });
      this.queue.push({ id: this.nextId++, file: path.resolve(this.options.root, ref.module), ref, input, resolve });
      this.pump();
    });

  private spawn(): Worker {
    const worker = new Worker(new URL("./evaluator-worker.mjs", import.meta.url), {
      env: {},
      argv: [],
      resourceLimits: this.options.resourceLimits ?? FUNCTION_EVALUATOR_LIMITS,
    });
    this.threadsStarted++;
    worker.on("message", (msg: WorkerMessage) => {
      const job = this.current;
      if (this.worker !== worker || !job || msg.id !== job.id) return;
      if (msg.phase === "loaded") {
        this.arm(job, worker, this.options.timeoutMs ?? FUNCTION_EVALUATOR_TIMEOUT_MS, "timeout");
        this.callStarted = performance.now();
        return;
      }
      const durationMs = performance.now() - this.callStarted;
      if (msg.ok) this.finish(job, { ok: true, value: msg.value, durationMs });
      else this.finish(job, { ok: false, failure: (msg.failure as "load" | "changed" | "crash") ?? "crash", message: msg.message ?? "unknown failure", durationMs });
    });
    const onDeath = (reason: string) => {
      if (this.worker !== worker) return;
      this.worker = null;
      const job = this.current;
      if (job) this.finish(job, { ok: false, failure: "crash", message: `the evaluator worker stopped: ${reason}` });
    };
    worker.on("error", (e) => onDeath(`${e.name}: ${e.message}`));
    worker.on("exit", (code) => onDeath(`exit code ${code}`));
    worker.unref();
    return worker;
  }

  /** (Re)starts the deadline of the current job; on expiry the thread is terminated. */
  private arm(job: Job, worker: Worker, ms: number, failure: "timeout" | "load"): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.current !== job) return;
      this.worker = null;
      void worker.terminate();
      this.finish(job, {
        ok: false,
        failure: failure === "load" ? "load" : "timeout",
        message: failure === "load" ? `loading the eval module took longer than ${ms} ms` : `evaluate did not finish within ${ms} ms (the worker thread was stopped)`,
        durationMs: ms,
      });
    }, ms);
  }

  private finish(job: Job, outcome: FunctionEvaluatorOutcome): void {
    if (this.current !== job) return;
    this.current = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.worker?.unref();
    job.resolve(outcome);
    this.pump();
  }

  private pump(): void {
    if (this.current || this.queue.length === 0) return;
    const job = this.queue.shift()!;
    this.current = job;
    const worker = (this.worker ??= this.spawn());
    worker.ref();
    this.callStarted = performance.now();
    this.arm(job, worker, this.options.loadTimeoutMs ?? FUNCTION_EVALUATOR_LOAD_TIMEOUT_MS, "load");
    try {
      worker.postMessage({ id: job.id, file: job.file, exportPath: job.ref.exportPath, sha256: job.ref.sha256, input: job.input });
    } catch (e) {
      this.finish(job, { ok: false, failure: "host", message: `the trial could not be sent to the evaluator worker: ${(e as Error).message}` });
    }
  }

  /** Stops the thread; queued calls resolve with a `host` failure. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.resolve({ ok: false, failure: "host", message: "the evaluator worker pool was closed" });
    const w = this.worker;
    this.worker = null;
    if (this.current) this.finish(this.current, { ok: false, failure: "host", message: "the evaluator worker pool was closed" });
    if (w) await w.terminate();
  }
}
