// Loads the QuickJS WebAssembly module for one sandbox host (a sandbox thread, or an in-process
// sandbox) with a linear memory that cannot grow past the host's memory cap. Plain JavaScript so
// the worker thread can load it; types are in sandbox-quickjs.d.mts.
//
// Why: under Emscripten QuickJS counts no bytes for the blocks it allocates (its usable-size hook
// returns 0 there), so the runtime's memory limit only refuses a single allocation larger than the
// limit. Many smaller strings or ArrayBuffers, each under it, were all accepted and grew the
// module's memory to its 2 GB maximum (quickjs-emscripten issues #255, #271). A memory whose
// maximum is the cap makes the next allocation fail instead, which QuickJS reports as
// "out of memory". Each host gets its own module because a module's memory is shared by all
// runtimes made from it.
import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } from "quickjs-emscripten";

const PAGE = 64 * 1024;
/** Pages the release-sync build starts with (its INITIAL_MEMORY, 16 MiB): static data, stack, first heap. */
export const INITIAL_PAGES = 256;
/** Room above the runtime's cap for what QuickJS does not count (the input copy, allocator slack), in bytes. */
export const SLACK_BYTES = 16 * 1024 * 1024;

/**
 * Bytes the module's memory may reach for a runtime capped at `memoryLimitBytes`.
 * @param {number} memoryLimitBytes the runtime's cap
 * @returns {number} initial memory + cap + slack, in bytes (a whole number of 64 KiB pages)
 */
export function moduleMemoryBytes(memoryLimitBytes) {
  return (INITIAL_PAGES + Math.ceil((memoryLimitBytes + SLACK_BYTES) / PAGE)) * PAGE;
}

/**
 * A QuickJS module of its own whose memory stops at {@link moduleMemoryBytes}.
 * @param {number} memoryLimitBytes the cap of the runtimes this module will run (one at a time)
 * @returns {Promise<import("quickjs-emscripten").QuickJSWASMModule>}
 * @throws when the WebAssembly module cannot be loaded
 */
export function loadBoundedQuickJS(memoryLimitBytes) {
  const wasmMemory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum: moduleMemoryBytes(memoryLimitBytes) / PAGE });
  return newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory }));
}
