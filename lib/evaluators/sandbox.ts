/**
 * The custom-evaluator sandbox: runs user JavaScript in QuickJS compiled to WebAssembly
 * (quickjs-emscripten, release-sync build). The shared core is sandbox-core.mjs.
 *
 * Isolation:
 * - QuickJS has no network, file system, process, environment or module loader: `fetch`,
 *   `require`, `process` do not exist inside it and `import()` fails. Only ECMAScript built-ins
 *   plus a `console` whose output is captured are available; nothing from the host is exposed, so
 *   no secret can leak in.
 * - Every call gets a fresh context (its own global object): one call cannot leave state for the
 *   next. Measured ≈ 0.3–0.6 ms per call after warm-up. Caching a loaded `evaluate` per code hash
 *   would be faster but would share globals between trials, so it is not done.
 * - Time: a deadline per call (default 5 s) enforced by QuickJS's interrupt handler, uncatchable
 *   inside the sandbox. Memory: a cap per runtime (default 32 MiB) and a stack cap (256 KiB).
 *
 * Two hosts:
 * - {@link WorkerSandbox} (default): the core runs in a worker thread. The caller's thread never
 *   blocks, and the deadline is hard: QuickJS only consults its interrupt handler between
 *   operations, so a call stuck inside one long built-in (e.g. a pathological `indexOf` over
 *   megabytes) is ended by terminating the thread after the deadline plus a grace period.
 * - {@link InProcessSandbox}: the core runs synchronously on the caller's thread (fastest, no
 *   thread); the deadline is only as precise as the interrupt handler. Used where worker threads
 *   are unavailable.
 */
import { Worker } from "node:worker_threads";
import { getQuickJS } from "quickjs-emscripten";
import { createCoreSandbox, type CoreOutcome, type CoreSandbox } from "./sandbox-core.mjs";

export type { SandboxFailure } from "./sandbox-core.mjs";

/** Default deadline per custom-evaluator call, in milliseconds (issue 4: five seconds). */
export const DEFAULT_SANDBOX_TIMEOUT_MS = 5_000;
/** Default memory cap of a sandbox runtime, in bytes (32 MiB). */
export const DEFAULT_SANDBOX_MEMORY_BYTES = 32 * 1024 * 1024;
/**
 * Default stack cap of a sandbox runtime, in bytes (256 KiB ≈ 1,300 nested calls of a small
 * function). Larger values let deep recursion overflow the host's native stack before QuickJS
 * notices.
 */
export const DEFAULT_SANDBOX_STACK_BYTES = 256 * 1024;

/** Limits of a sandbox. */
export interface SandboxOptions {
  /** Deadline per call in ms (default {@link DEFAULT_SANDBOX_TIMEOUT_MS}); a call may override it. */
  timeoutMs?: number;
  /** Memory cap in bytes (default {@link DEFAULT_SANDBOX_MEMORY_BYTES}). */
  memoryLimitBytes?: number;
  /** Stack cap in bytes (default {@link DEFAULT_SANDBOX_STACK_BYTES}). */
  maxStackBytes?: number;
  /**
   * Worker sandbox only: extra time after the deadline before the thread is terminated, in ms
   * (default 250 ms + 10% of the deadline).
   */
  graceMs?: number;
}

/**
 * Outcome of one sandbox call: the JSON-decoded value `evaluate` returned, or why it failed;
 * `logs` holds captured `console` output; `durationMs` is the time spent in the sandbox.
 */
export type SandboxResult = CoreOutcome;

/** What the registry needs from a sandbox (both hosts implement it). */
export interface CustomEvaluatorSandbox {
  /** `worker` or `in-process`. */
  readonly isolation: "worker" | "in-process";
  /**
   * Runs `code` (which must define `evaluate`) on `input` and returns what `evaluate(input)`
   * returned. A returned promise is awaited when it settles without outside events (there are no
   * timers or I/O in the sandbox). Never rejects.
   * @param input any JSON-serialisable value, passed as the single argument
   * @param options.timeoutMs deadline for this call (load + run), default the sandbox's
   */
  run(code: string, input: unknown, options?: { timeoutMs?: number }): Promise<SandboxResult>;
  /**
   * Loads `code` without calling `evaluate`, to report problems when a custom evaluator is saved.
   * @returns `null` when the code compiles, its top level runs within the deadline and it defines
   *   a function `evaluate`; otherwise a message (syntax error, top-level exception, missing evaluate)
   */
  checkCode(code: string, options?: { timeoutMs?: number }): Promise<string | null>;
  /** Frees the runtime (and thread). Safe to call twice. */
  dispose(): Promise<void>;
}

function limitsOf(options: SandboxOptions) {
  return {
    memoryLimitBytes: options.memoryLimitBytes ?? DEFAULT_SANDBOX_MEMORY_BYTES,
    maxStackBytes: options.maxStackBytes ?? DEFAULT_SANDBOX_STACK_BYTES,
  };
}

/** JSON text of the input, or the failure outcome when it cannot be serialised. */
function serialise(input: unknown): { json: string } | { failure: SandboxResult } {
  try {
    return { json: JSON.stringify(input) ?? "null" };
  } catch (e) {
    return {
      failure: {
        ok: false,
        failure: "unserializable",
        message: `the trial could not be serialised for the sandbox: ${(e as Error).message}`,
        logs: [],
        durationMs: 0,
      },
    };
  }
}

function probeMessage(result: SandboxResult): string | null {
  if (result.ok) return null;
  switch (result.failure) {
    case "compile":
      return `the code has a syntax error: ${result.message}`;
    case "missing-evaluate":
    case "crash":
      return result.message;
    default:
      return `loading the code failed: ${result.message}`;
  }
}

/**
 * Sandbox running on the caller's thread. Calls are synchronous ({@link runSync}); the deadline
 * relies on QuickJS's interrupt handler only (see module doc).
 */
export class InProcessSandbox implements CustomEvaluatorSandbox {
  readonly isolation = "in-process" as const;
  private disposed = false;

  private constructor(
    private readonly core: CoreSandbox,
    private readonly timeoutMs: number,
  ) {}

  /**
   * Creates an in-process sandbox; the first one in a process loads the WebAssembly module (≈ 20 ms).
   * @throws when the WebAssembly module cannot be loaded
   */
  static async create(options: SandboxOptions = {}): Promise<InProcessSandbox> {
    const quickjs = await getQuickJS();
    return new InProcessSandbox(createCoreSandbox(quickjs, limitsOf(options)), options.timeoutMs ?? DEFAULT_SANDBOX_TIMEOUT_MS);
  }

  /** Synchronous {@link CustomEvaluatorSandbox.run}. Never throws. */
  runSync(code: string, input: unknown, options: { timeoutMs?: number } = {}): SandboxResult {
    if (this.disposed) return { ok: false, failure: "host", message: "the sandbox has been disposed", logs: [], durationMs: 0 };
    const s = serialise(input);
    if ("failure" in s) return s.failure;
    return this.core.run(code, s.json, options.timeoutMs ?? this.timeoutMs, false);
  }

  /** {@link CustomEvaluatorSandbox.run}, resolved immediately (the work is synchronous). */
  async run(code: string, input: unknown, options: { timeoutMs?: number } = {}): Promise<SandboxResult> {
    return this.runSync(code, input, options);
  }

  /** Synchronous {@link CustomEvaluatorSandbox.checkCode}. */
  checkCodeSync(code: string, options: { timeoutMs?: number } = {}): string | null {
    if (this.disposed) return "the sandbox has been disposed";
    return probeMessage(this.core.run(code, "null", options.timeoutMs ?? this.timeoutMs, true));
  }

  /** {@link CustomEvaluatorSandbox.checkCode}, resolved immediately. */
  async checkCode(code: string, options: { timeoutMs?: number } = {}): Promise<string | null> {
    return this.checkCodeSync(code, options);
  }

  /** Frees the QuickJS runtime; later calls fail with failure `host`. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.core.dispose();
  }
}

interface Job {
  id: number;
  code: string;
  input: string;
  timeoutMs: number;
  probe: boolean;
  resolve: (r: SandboxResult) => void;
}

/**
 * Sandbox running in a worker thread, one call at a time (calls queue). The caller's thread never
 * blocks; a call that overruns its deadline plus the grace period gets its thread terminated and
 * is reported as `timeout`, and a fresh thread serves the next call.
 */
export class WorkerSandbox implements CustomEvaluatorSandbox {
  readonly isolation = "worker" as const;
  private worker: Worker | null = null;
  private starting: Promise<void> | null = null;
  private queue: Job[] = [];
  private current: Job | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private nextId = 1;
  private disposed = false;
  private readonly timeoutMs: number;
  private readonly graceMs: number | undefined;
  private readonly limits: { memoryLimitBytes: number; maxStackBytes: number };
  /** Threads started so far (1 + restarts), for diagnostics and tests. */
  threadsStarted = 0;

  private constructor(options: SandboxOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_SANDBOX_TIMEOUT_MS;
    this.graceMs = options.graceMs;
    this.limits = limitsOf(options);
  }

  /**
   * Starts a worker sandbox and waits until its thread has loaded QuickJS (cold start ≈ 50–100 ms).
   * @throws when the worker thread cannot start (e.g. the bundler did not ship sandbox-worker.mjs)
   */
  static async create(options: SandboxOptions = {}): Promise<WorkerSandbox> {
    const sandbox = new WorkerSandbox(options);
    await sandbox.spawn();
    return sandbox;
  }

  /** Starts a thread; resolves when it reports ready, rejects if it dies first. */
  private spawn(): Promise<void> {
    if (this.starting) return this.starting;
    const worker = new Worker(new URL("./sandbox-worker.mjs", import.meta.url), {
      workerData: this.limits,
      resourceLimits: { stackSizeMb: 4 },
    });
    this.threadsStarted++;
    this.worker = worker;
    worker.unref();
    this.starting = new Promise<void>((resolve, reject) => {
      let ready = false;
      worker.on("message", (msg: { ready?: boolean; id?: number; outcome?: SandboxResult }) => {
        if (msg.ready) {
          ready = true;
          this.starting = null;
          resolve();
          this.pump();
          return;
        }
        if (this.worker !== worker) return;
        const job = this.current;
        if (job && msg.id === job.id && msg.outcome) this.finish(job, msg.outcome);
      });
      const onDeath = (reason: string) => {
        if (this.worker !== worker) return; // a thread we already replaced
        this.worker = null;
        this.starting = null;
        if (!ready) {
          reject(new Error(`the sandbox worker could not start: ${reason}`));
          // Fail queued calls rather than respawning in a loop.
          for (const job of this.queue.splice(0)) job.resolve({ ok: false, failure: "host", message: `the sandbox worker could not start: ${reason}`, logs: [], durationMs: 0 });
          return;
        }
        const job = this.current;
        if (job) this.finish(job, { ok: false, failure: "host", message: `the sandbox worker stopped: ${reason}`, logs: [], durationMs: 0 });
        else this.pump();
      };
      worker.on("error", (e) => onDeath(e.message));
      worker.on("exit", (code) => onDeath(`exit code ${code}`));
    });
    // Avoid an unhandled rejection when nobody awaits this start (a respawn).
    this.starting.catch(() => undefined);
    return this.starting;
  }

  private finish(job: Job, outcome: SandboxResult): void {
    if (this.current !== job) return;
    this.current = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.worker?.unref();
    job.resolve(outcome);
    this.pump();
  }

  /** Sends the next queued call when the thread is idle (starting one if needed). */
  private pump(): void {
    if (this.disposed || this.current || this.queue.length === 0) return;
    if (!this.worker) {
      void this.spawn().catch(() => undefined);
      return;
    }
    if (this.starting) return; // pump() runs again on ready
    const job = this.queue.shift()!;
    this.current = job;
    const worker = this.worker;
    worker.ref();
    const grace = this.graceMs ?? 250 + Math.round(job.timeoutMs * 0.1);
    const started = performance.now();
    this.timer = setTimeout(() => {
      if (this.current !== job) return;
      // Stuck inside one long built-in call: end the thread.
      this.worker = null;
      void worker.terminate();
      this.finish(job, {
        ok: false,
        failure: "timeout",
        message: `timed out after ${job.timeoutMs} ms (the sandbox thread was stopped)`,
        logs: [],
        durationMs: performance.now() - started,
      });
    }, job.timeoutMs + grace);
    worker.postMessage({ id: job.id, code: job.code, input: job.input, timeoutMs: job.timeoutMs, probe: job.probe });
  }

  private enqueue(code: string, input: string, timeoutMs: number, probe: boolean): Promise<SandboxResult> {
    if (this.disposed) return Promise.resolve({ ok: false, failure: "host", message: "the sandbox has been disposed", logs: [], durationMs: 0 });
    return new Promise<SandboxResult>((resolve) => {
      this.queue.push({ id: this.nextId++, code, input, timeoutMs, probe, resolve });
      this.pump();
    });
  }

  /** {@link CustomEvaluatorSandbox.run} on the worker thread (calls queue, one at a time). */
  async run(code: string, input: unknown, options: { timeoutMs?: number } = {}): Promise<SandboxResult> {
    const s = serialise(input);
    if ("failure" in s) return s.failure;
    return this.enqueue(code, s.json, options.timeoutMs ?? this.timeoutMs, false);
  }

  /** {@link CustomEvaluatorSandbox.checkCode} on the worker thread. */
  async checkCode(code: string, options: { timeoutMs?: number } = {}): Promise<string | null> {
    return probeMessage(await this.enqueue(code, "null", options.timeoutMs ?? this.timeoutMs, true));
  }

  /** Stops the thread; pending and later calls fail with failure `host`. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    const pending = [...(this.current ? [this.current] : []), ...this.queue.splice(0)];
    this.current = null;
    for (const job of pending) job.resolve({ ok: false, failure: "host", message: "the sandbox was disposed", logs: [], durationMs: 0 });
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }
}

/**
 * Creates a sandbox.
 * @param options.isolation `worker` (thread, hard deadline), `in-process` (caller's thread), or
 *   `auto` (default: worker, falling back to in-process when a thread cannot start)
 * @throws when neither host can start (the WebAssembly module cannot be loaded)
 */
export async function createSandbox(options: SandboxOptions & { isolation?: "worker" | "in-process" | "auto" } = {}): Promise<CustomEvaluatorSandbox> {
  const isolation = options.isolation ?? "auto";
  if (isolation === "in-process") return InProcessSandbox.create(options);
  if (isolation === "worker") return WorkerSandbox.create(options);
  try {
    return await WorkerSandbox.create(options);
  } catch {
    return InProcessSandbox.create(options);
  }
}

let shared: Promise<CustomEvaluatorSandbox> | null = null;

/**
 * The process-wide sandbox with default limits (`auto` isolation), created on first use. Every
 * bench reuses it; calls are independent (fresh context per call). Its idle thread does not keep
 * the process alive.
 */
export function getSharedSandbox(): Promise<CustomEvaluatorSandbox> {
  if (!shared) {
    shared = createSandbox();
    shared.catch(() => {
      shared = null;
    });
  }
  return shared;
}
