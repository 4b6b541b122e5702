/** Types of sandbox-quickjs.mjs (plain JavaScript shared by the in-process sandbox and the worker thread). */
import type { QuickJSWASMModule } from "quickjs-emscripten";

/** Pages (64 KiB) the QuickJS module's memory starts with. */
export declare const INITIAL_PAGES: number;
/** Room above the runtime's cap for what QuickJS does not count, in bytes. */
export declare const SLACK_BYTES: number;
/** Bytes the module's memory may reach for a runtime capped at `memoryLimitBytes`. */
export declare function moduleMemoryBytes(memoryLimitBytes: number): number;
/**
 * A QuickJS module of its own whose memory cannot grow past {@link moduleMemoryBytes}.
 * @throws when the WebAssembly module cannot be loaded
 */
export declare function loadBoundedQuickJS(memoryLimitBytes: number): Promise<QuickJSWASMModule>;
