/** Types of sandbox-core.mjs (plain JavaScript shared by the in-process sandbox and the worker thread). */
import type { QuickJSWASMModule } from "quickjs-emscripten";

/** Log lines kept per call. */
export declare const MAX_LOG_LINES: number;
/** Code evaluated in every fresh context before the user's code. */
export declare const PRELUDE: string;

/** Why a sandbox call failed. */
export type SandboxFailure = "timeout" | "memory" | "compile" | "crash" | "missing-evaluate" | "unserializable" | "pending" | "host";

/** Outcome of one call, with its wall time in milliseconds. */
export type CoreOutcome =
  | { ok: true; value: unknown; logs: string[]; durationMs: number }
  | { ok: false; failure: SandboxFailure; message: string; logs: string[]; durationMs: number };

/** A sandbox core over one QuickJS runtime. */
export interface CoreSandbox {
  /**
   * Loads `code` in a fresh context and calls `evaluate(JSON.parse(inputJson))` (or, with `probe`,
   * only checks that `evaluate` is a function). Never throws.
   */
  run(code: string, inputJson: string, timeoutMs: number, probe: boolean): CoreOutcome;
  /**
   * False once a call ended in a host-side exception (e.g. the native stack overflowed inside
   * WebAssembly): that runtime could not be freed, so its memory stays taken in the module. The
   * host replaces the module (a new thread, or a new in-process core) before the next call.
   */
  readonly healthy: boolean;
  /** Frees the runtime. */
  dispose(): void;
}

/** Creates a sandbox core with the given memory and stack caps (bytes). */
export declare function createCoreSandbox(quickjs: QuickJSWASMModule, limits: { memoryLimitBytes: number; maxStackBytes: number }): CoreSandbox;
