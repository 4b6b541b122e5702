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
 *   inside the sandbox. Memory: a cap per runtime (default 32 MiB), held by the WebAssembly memory
 *   of the host's own QuickJS module (QuickJS alone does not count strings and buffers under
 *   Emscripten: sandbox-quickjs.mjs), and a stack cap (256 KiB).
 *
 * Two hosts:
 * - {@link WorkerSandbox} (default): the core runs in worker threads, one call per thread at a time
 *   (up to {@link DEFAULT_SANDBOX_THREADS} threads), so a call that hangs until its deadline delays
 *   no other call. The caller's thread never blocks, and the deadline is hard: QuickJS only
 *   consults its interrupt handler between operations, so a call stuck inside one long built-in
 *   (e.g. a pathological `indexOf` over megabytes) is ended by terminating its thread after the
 *   deadline plus a grace period.
 * - {@link InProcessSandbox}: the core runs synchronously on the caller's thread (fastest, no
 *   thread); the deadline is only as precise as the interrupt handler. Used where worker threads
 *   are unavailable.
 */
import { Worker } from "node:worker_threads";
import { createCoreSandbox, type CoreOutcome, type CoreSandbox } from "./sandbox-core.mjs";
import { loadBoundedQuickJS } from "./sandbox-quickjs.mjs";

export type { SandboxFailure } from "./sandbox-core.mjs";

/** Default deadline per custom-evaluator call, in milliseconds (issue 4: five seconds). */
export const DEFAULT_SANDBOX_TIMEOUT_MS = 5_000;
/**
 * Default number of threads of a worker sandbox: calls running at once. A call that hangs until its
 * deadline keeps one thread; the others serve the rest (a bench's trials each run their custom
 * checks). Each thread costs a few MB when idle (one stays; extra ones stop when idle).
 */
export const DEFAULT_SANDBOX_THREADS = 8;
/** Default time an extra sandbox thread stays without work before it stops, in ms. */
export const DEFAULT_SANDBOX_IDLE_MS = 30_000;
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
  /** Worker sandbox only: most threads, i.e. calls at once (default {@link DEFAULT_SANDBOX_THREADS}). */
  maxThreads?: number;
  /** Worker sandbox only: ms an extra thread stays idle before it stops (default {@link DEFAULT_SANDBOX_IDLE_MS}). */
  idleMs?: number;
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

/** A `host` failure outcome (the sandbox itself could not run the call). */
function hostFailure(message: string): SandboxResult {
  return { ok: false, failure: "host", message, logs: [], durationMs: 0 };
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
    private core: CoreSandbox,
    private readonly limits: { memoryLimitBytes: number; maxStackBytes: number },
    private readonly timeoutMs: number,
  ) {}

  /**
   * A fresh module when the current one holds a runtime it could not free (see
   * `CoreSandbox.healthy`); the old module and its memory are let go.
   */
  private async renew(): Promise<void> {
    if (this.core.healthy) return;
    this.core = createCoreSandbox(await loadBoundedQuickJS(this.limits.memoryLimitBytes), this.limits);
  }

  /**
   * Creates an in-process sandbox with a WebAssembly module of its own (≈ 20 ms), whose memory
   * stops at the memory cap (see sandbox-quickjs.mjs).
   * @throws when the WebAssembly module cannot be loaded
   */
  static async create(options: SandboxOptions = {}): Promise<InProcessSandbox> {
    const limits = limitsOf(options);
    const quickjs = await loadBoundedQuickJS(limits.memoryLimitBytes);
    return new InProcessSandbox(createCoreSandbox(quickjs, limits), limits, options.timeoutMs ?? DEFAULT_SANDBOX_TIMEOUT_MS);
  }

  /**
   * Synchronous {@link CustomEvaluatorSandbox.run}. Never throws. Unlike {@link run} it cannot
   * replace a module that holds a runtime it could not free.
   */
  runSync(code: string, input: unknown, options: { timeoutMs?: number } = {}): SandboxResult {
    if (this.disposed) return { ok: false, failure: "host", message: "the sandbox has been disposed", logs: [], durationMs: 0 };
    const s = serialise(input);
    if ("failure" in s) return s.failure;
    return this.core.run(code, s.json, options.timeoutMs ?? this.timeoutMs, false);
  }

  /** {@link CustomEvaluatorSandbox.run}; the work is synchronous once the module is sound. */
  async run(code: string, input: unknown, options: { timeoutMs?: number } = {}): Promise<SandboxResult> {
    if (!this.disposed) {
      try {
        await this.renew();
      } catch (e) {
        return hostFailure(`the sandbox could not reload QuickJS: ${(e as Error).message}`);
      }
    }
    return this.runSync(code, input, options);
  }

  /** Synchronous {@link CustomEvaluatorSandbox.checkCode}. */
  checkCodeSync(code: string, options: { timeoutMs?: number } = {}): string | null {
    if (this.disposed) return "the sandbox has been disposed";
    return probeMessage(this.core.run(code, "null", options.timeoutMs ?? this.timeoutMs, true));
  }

  /** {@link CustomEvaluatorSandbox.checkCode}; the work is synchronous once the module is sound. */
  async checkCode(code: string, options: { timeoutMs?: number } = {}): Promise<string | null> {
    if (!this.disposed) {
      try {
        await this.renew();
      } catch (e) {
        return `loading the code failed: the sandbox could not reload QuickJS: ${(e as Error).message}`;
      }
    }
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

/** One sandbox thread: it runs one call at a time. */
interface Lane {
  worker: Worker;
  /** The thread has loaded QuickJS and takes calls. */
  ready: boolean;
  job: Job | null;
  /** Ends the call when it overruns its deadline plus the grace period. */
  timer: ReturnType<typeof setTimeout> | null;
  /** Stops the thread when it stays idle (not the last one). */
  idleTimer: ReturnType<typeof setTimeout> | null;
}

/**
 * Sandbox running in worker threads, one call per thread at a time. A call goes to an idle thread,
 * or to a new one while fewer than `maxThreads` run, so a call that hangs until its deadline holds
 * up no other call (issue "Seal the server and the sandboxes": evaluator timeouts of one trial
 * thread queued behind each other); beyond `maxThreads` calls wait for a free thread. The caller's
 * thread never blocks; a call that overruns its deadline plus the grace period gets its thread
 * terminated and is reported as `timeout`. A thread whose module holds a runtime it could not free
 * (a native stack overflow) is replaced after answering. Extra threads stop after `idleMs` without
 * work; one stays, and an idle thread does not keep the process alive.
 */
export class WorkerSandbox implements CustomEvaluatorSandbox {
  readonly isolation = "worker" as const;
  private readonly lanes = new Set<Lane>();
  private queue: Job[] = [];
  private nextId = 1;
  private disposed = false;
  private readonly timeoutMs: number;
  private readonly graceMs: number | undefined;
  private readonly maxThreads: number;
  private readonly idleMs: number;
  private readonly limits: { memoryLimitBytes: number; maxStackBytes: number };
  /** Threads started so far (first, extra and replacements), for diagnostics and tests. */
  threadsStarted = 0;

  private constructor(options: SandboxOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_SANDBOX_TIMEOUT_MS;
    this.graceMs = options.graceMs;
    this.maxThreads = Math.max(1, Math.floor(options.maxThreads ?? DEFAULT_SANDBOX_THREADS));
    this.idleMs = Math.max(0, options.idleMs ?? DEFAULT_SANDBOX_IDLE_MS);
    this.limits = limitsOf(options);
  }

  /** Threads alive now (running a call, idle, or starting). */
  get threadCount(): number {
    return this.lanes.size;
  }

  /**
   * Starts a worker sandbox and waits until its first thread has loaded QuickJS (cold start ≈ 50–100 ms).
   * @throws when the worker thread cannot start (e.g. the bundler did not ship sandbox-worker.mjs)
   */
  static async create(options: SandboxOptions = {}): Promise<WorkerSandbox> {
    const sandbox = new WorkerSandbox(options);
    await sandbox.startLane();
    return sandbox;
  }

  /** Starts a thread; resolves when it reports ready, rejects if it dies first. */
  private startLane(): Promise<void> {
    const worker = new Worker(new URL("./sandbox-worker.mjs", import.meta.url), {
      workerData: this.limits,
      resourceLimits: { stackSizeMb: 4 },
    });
    this.threadsStarted++;
    const lane: Lane = { worker, ready: false, job: null, timer: null, idleTimer: null };
    this.lanes.add(lane);
    worker.unref();
    const started = new Promise<void>((resolve, reject) => {
      worker.on("message", (msg: { ready?: boolean; id?: number; outcome?: SandboxResult; retire?: boolean }) => {
        if (msg.ready) {
          lane.ready = true;
          resolve();
          this.idle(lane);
          return;
        }
        const job = lane.job;
        if (job && msg.id === job.id && msg.outcome) this.finish(lane, msg.outcome, msg.retire === true);
      });
      const onDeath = (reason: string) => {
        if (!this.lanes.delete(lane)) return; // a thread we already let go
        if (lane.timer) clearTimeout(lane.timer);
        if (lane.idleTimer) clearTimeout(lane.idleTimer);
        if (!lane.ready) {
          reject(new Error(`the sandbox worker could not start: ${reason}`));
          // With no other thread to serve them, fail queued calls rather than respawning in a loop.
          if (this.lanes.size === 0) for (const job of this.queue.splice(0)) job.resolve(hostFailure(`the sandbox worker could not start: ${reason}`));
          return;
        }
        const job = lane.job;
        lane.job = null;
        job?.resolve(hostFailure(`the sandbox worker stopped: ${reason}`));
        this.pump();
      };
      worker.on("error", (e) => onDeath(e.message));
      worker.on("exit", (code) => onDeath(`exit code ${code}`));
    });
    // Avoid an unhandled rejection when nobody awaits this start (an extra thread or a replacement).
    started.catch(() => undefined);
    return started;
  }

  /** A thread is free: it takes the next call, or waits (and stops after `idleMs` unless it is the last one). */
  private idle(lane: Lane): void {
    if (this.disposed) return;
    const job = this.queue.shift();
    if (job) return this.dispatch(lane, job);
    if (lane.idleTimer) clearTimeout(lane.idleTimer);
    lane.idleTimer = setTimeout(() => {
      lane.idleTimer = null;
      if (lane.job || this.lanes.size <= 1 || !this.lanes.has(lane)) return;
      this.lanes.delete(lane);
      void lane.worker.terminate();
    }, this.idleMs);
    lane.idleTimer.unref?.();
  }

  private dispatch(lane: Lane, job: Job): void {
    if (lane.idleTimer) clearTimeout(lane.idleTimer);
    lane.idleTimer = null;
    lane.job = job;
    const worker = lane.worker;
    worker.ref();
    const grace = this.graceMs ?? 250 + Math.round(job.timeoutMs * 0.1);
    const started = performance.now();
    lane.timer = setTimeout(() => {
      if (lane.job !== job) return;
      // Stuck inside one long built-in call: end the thread; the next call gets another.
      this.lanes.delete(lane);
      void worker.terminate();
      lane.job = null;
      job.resolve({
        ok: false,
        failure: "timeout",
        message: `timed out after ${job.timeoutMs} ms (the sandbox thread was stopped)`,
        logs: [],
        durationMs: performance.now() - started,
      });
      this.pump();
    }, job.timeoutMs + grace);
    worker.postMessage({ id: job.id, code: job.code, input: job.input, timeoutMs: job.timeoutMs, probe: job.probe });
  }

  /** A call's answer. `retire`: the thread's module holds a runtime it could not free; it is replaced. */
  private finish(lane: Lane, outcome: SandboxResult, retire: boolean): void {
    const job = lane.job;
    if (!job) return;
    lane.job = null;
    if (lane.timer) clearTimeout(lane.timer);
    lane.timer = null;
    lane.worker.unref();
    job.resolve(outcome);
    if (!retire) return this.idle(lane);
    this.lanes.delete(lane);
    void lane.worker.terminate();
    // Keep a thread ready (the sandbox always has one), and serve waiting calls.
    if (this.lanes.size === 0 && !this.disposed) void this.startLane().catch(() => undefined);
    this.pump();
  }

  /** Hands queued calls to idle threads, and starts threads (up to `maxThreads`) for the rest. */
  private pump(): void {
    if (this.disposed) return;
    for (const lane of this.lanes) {
      if (this.queue.length === 0) return;
      if (lane.ready && !lane.job) this.dispatch(lane, this.queue.shift()!);
    }
    let starting = 0;
    for (const lane of this.lanes) if (!lane.ready) starting++;
    // One new thread per waiting call that no starting thread will take (each takes one when ready).
    while (this.lanes.size < this.maxThreads && starting < this.queue.length) {
      void this.startLane().catch(() => undefined);
      starting++;
    }
  }

  private enqueue(code: string, input: string, timeoutMs: number, probe: boolean): Promise<SandboxResult> {
    if (this.disposed) return Promise.resolve(hostFailure("the sandbox has been disposed"));
    return new Promise<SandboxResult>((resolve) => {
      this.queue.push({ id: this.nextId++, code, input, timeoutMs, probe, resolve });
      this.pump();
    });
  }

  /** {@link CustomEvaluatorSandbox.run} on a sandbox thread (a free one, or a new one up to `maxThreads`). */
  async run(code: string, input: unknown, options: { timeoutMs?: number } = {}): Promise<SandboxResult> {
    const s = serialise(input);
    if ("failure" in s) return s.failure;
    return this.enqueue(code, s.json, options.timeoutMs ?? this.timeoutMs, false);
  }

  /** {@link CustomEvaluatorSandbox.checkCode} on a sandbox thread. */
  async checkCode(code: string, options: { timeoutMs?: number } = {}): Promise<string | null> {
    return probeMessage(await this.enqueue(code, "null", options.timeoutMs ?? this.timeoutMs, true));
  }

  /** Stops every thread; pending and later calls fail with failure `host`. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const lanes = [...this.lanes];
    this.lanes.clear();
    const pending: Job[] = this.queue.splice(0);
    for (const lane of lanes) {
      if (lane.timer) clearTimeout(lane.timer);
      if (lane.idleTimer) clearTimeout(lane.idleTimer);
      if (lane.job) pending.push(lane.job);
      lane.job = null;
    }
    for (const job of pending) job.resolve(hostFailure("the sandbox was disposed"));
    await Promise.all(lanes.map((l) => l.worker.terminate()));
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
 * bench reuses it; calls are independent (fresh context per call) and run side by side on its
 * threads. Its idle threads do not keep the process alive.
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
