import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { InProcessSandbox, WorkerSandbox, createSandbox, getSharedSandbox, type CustomEvaluatorSandbox } from "./sandbox";

/** The short deadline the timeout tests give their call, in ms. */
const T = 150;
/**
 * The deadline (and, for threads, the grace) of every other call, in ms: generous, so a call that
 * should succeed never meets its deadline on a busy machine.
 */
const AMPLE = 30_000;

/** The standard global names of QuickJS (ECMAScript built-ins only). */
const ECMASCRIPT_GLOBALS = [
  "Error",
  "EvalError",
  "RangeError",
  "ReferenceError",
  "SyntaxError",
  "TypeError",
  "URIError",
  "InternalError",
  "AggregateError",
  "Array",
  "Object",
  "Function",
  "Iterator",
  "parseInt",
  "parseFloat",
  "isNaN",
  "isFinite",
  "decodeURI",
  "decodeURIComponent",
  "encodeURI",
  "encodeURIComponent",
  "escape",
  "unescape",
  "Infinity",
  "NaN",
  "undefined",
  "eval",
  "Number",
  "Boolean",
  "String",
  "Math",
  "Reflect",
  "Symbol",
  "globalThis",
  "BigInt",
  "Date",
  "RegExp",
  "JSON",
  "Proxy",
  "Map",
  "Set",
  "WeakMap",
  "WeakSet",
  "ArrayBuffer",
  "SharedArrayBuffer",
  "Uint8ClampedArray",
  "Int8Array",
  "Uint8Array",
  "Int16Array",
  "Uint16Array",
  "Int32Array",
  "Uint32Array",
  "BigInt64Array",
  "BigUint64Array",
  "Float16Array",
  "Float32Array",
  "Float64Array",
  "DataView",
  "Promise",
  "WeakRef",
  "FinalizationRegistry",
];

describe.each(["worker", "in-process"] as const)("sandbox (%s)", (isolation) => {
  let sb: CustomEvaluatorSandbox;
  beforeAll(async () => {
    // The grace before a thread is stopped is ample too: a timeout test sees QuickJS's own
    // interrupt (the thread-stopping path has its own test below).
    sb = await createSandbox({ isolation, timeoutMs: AMPLE, graceMs: AMPLE });
    expect(sb.isolation).toBe(isolation);
  });
  afterAll(async () => {
    await sb.dispose();
  });

  it("returns what evaluate returns, JSON-decoded", async () => {
    const r = await sb.run("function evaluate({ output, caseData }) { return { passed: output === caseData.want, score: 0.5, details: { n: [1, 2] } } }", {
      output: "a",
      caseData: { want: "a" },
    });
    expect(r).toMatchObject({ ok: true, value: { passed: true, score: 0.5, details: { n: [1, 2] } }, logs: [] });
  });

  it("accepts const/arrow definitions and captures console output", async () => {
    const r = await sb.run("const evaluate = ({ output }) => { console.log('len', output.length, { a: 1 }); console.warn('w'); return output.length > 2 }", {
      output: "abc",
    });
    expect(r).toMatchObject({ ok: true, value: true, logs: ['len 3 {"a":1}', "warn: w"] });
  });

  it("gives every call a fresh global scope", async () => {
    const code = "globalThis.count = (globalThis.count || 0) + 1; var calls = globalThis.count; function evaluate() { return calls }";
    expect((await sb.run(code, {})).ok && (await sb.run(code, {}))).toMatchObject({ ok: true, value: 1 });
  });

  it("resolves an async evaluate", async () => {
    expect(await sb.run("async function evaluate({ output }) { await null; return output === 'x' }", { output: "x" })).toMatchObject({ ok: true, value: true });
  });

  it("reports a promise that never settles", async () => {
    expect(await sb.run("function evaluate() { return new Promise(() => {}) }", {})).toMatchObject({ ok: false, failure: "pending" });
  });

  it("times out an infinite loop at the call's deadline", async () => {
    const r = await sb.run("function evaluate() { while (true) {} }", {}, { timeoutMs: T });
    expect(r).toMatchObject({ ok: false, failure: "timeout", message: `timed out after ${T} ms` });
    // Never early; how much later depends on the machine's load, so no upper bound.
    expect(r.durationMs).toBeGreaterThanOrEqual(T);
  });

  it("times out a loop that catches everything (the interrupt cannot be caught)", async () => {
    const r = await sb.run("function evaluate() { for (;;) { try { while (true) {} } catch (e) {} } }", {}, { timeoutMs: T });
    expect(r).toMatchObject({ ok: false, failure: "timeout", message: `timed out after ${T} ms` });
  });

  it("times out a top-level infinite loop", async () => {
    expect(await sb.run("for (;;) {} function evaluate() { return true }", {}, { timeoutMs: T })).toMatchObject({
      ok: false,
      failure: "timeout",
      message: `timed out after ${T} ms`,
    });
  });

  it("lets a per-call deadline outlast the sandbox's", async () => {
    const short = await createSandbox({ isolation, timeoutMs: T, graceMs: AMPLE });
    try {
      // Busy for twice the sandbox's deadline: only the call's own (ample) deadline lets it finish.
      const r = await short.run(`function evaluate() { const t = Date.now(); while (Date.now() - t < ${2 * T}) {} return true }`, {}, { timeoutMs: AMPLE });
      expect(r).toMatchObject({ ok: true, value: true });
      expect(await short.run("function evaluate() { while (true) {} }", {})).toMatchObject({
        ok: false,
        failure: "timeout",
        message: `timed out after ${T} ms`,
      });
    } finally {
      await short.dispose();
    }
  });

  it("reports a crash (throw)", async () => {
    expect(await sb.run("function evaluate() { throw new Error('boom') }", {})).toMatchObject({ ok: false, failure: "crash", message: "Error: boom" });
  });

  it("reports a throw while loading", async () => {
    expect(await sb.run("throw new TypeError('bad setup'); function evaluate() {}", {})).toMatchObject({
      ok: false,
      failure: "crash",
      message: "the code threw while loading: TypeError: bad setup",
    });
  });

  it("reports a syntax error", async () => {
    expect(await sb.run("function evaluate( { return 1 }", {})).toMatchObject({ ok: false, failure: "compile" });
  });

  it("reports missing evaluate", async () => {
    expect(await sb.run("function check() { return true }", {})).toMatchObject({
      ok: false,
      failure: "missing-evaluate",
      message: "the code does not define a function named evaluate (evaluate is not defined)",
    });
    expect(await sb.run("var evaluate = 3", {})).toMatchObject({
      ok: false,
      failure: "missing-evaluate",
      message: expect.stringContaining("evaluate is a number"),
    });
  });

  it("stops a memory blow-up at the memory cap", async () => {
    const r = await sb.run("function evaluate() { const a = []; for (;;) a.push({ k: a.length, s: 'v' + a.length }) }", {});
    expect(r).toMatchObject({ ok: false, failure: "memory" });
    expect(r.ok ? "" : r.message).toContain("out of memory");
  });

  // QuickJS counts no bytes of a string or an ArrayBuffer under Emscripten (its usable-size hook
  // is 0 there), so the runtime's cap only refused one allocation larger than the cap: 80 buffers
  // of 1 MB each were kept under the 32 MiB cap, and a loop of them grew the thread to 2 GB.
  it.each([
    ["typed arrays", "new Uint8Array(1024 * 1024)"],
    ["strings", "'x'.repeat(1024 * 1024) + i"],
  ])("keeps the sum of many allocations (%s), each under the cap, under the memory cap", async (_kind, alloc) => {
    const r = await sb.run(
      `function evaluate() { const kept = []; for (let i = 0; i < 80; i++) kept.push(${alloc}); return kept.length }`,
      {},
      { timeoutMs: 20_000 },
    );
    expect(r).toMatchObject({ ok: false, failure: "memory" });
    // The sandbox serves the next call after the refusal.
    expect(await sb.run("function evaluate() { return 'x'.repeat(1024 * 1024).length }", {})).toMatchObject({ ok: true, value: 1024 * 1024 });
  });

  // Code nested deeper than the native stack (here the parser's) overflows inside WebAssembly: the
  // runtime is dropped without being freed (it cannot be), so its memory stays taken in the
  // module. Under a bounded module memory those leaks added up until every later call failed.
  it("serves honest calls after many native stack overflows", async () => {
    const small = await createSandbox({ isolation, timeoutMs: 5_000, memoryLimitBytes: 4 * 1024 * 1024 });
    try {
      for (let i = 0; i < 150; i++) {
        expect(await small.run("function evaluate() { return eval('['.repeat(1e5)) }", {})).toMatchObject({ ok: false, failure: "crash" });
        expect(await small.run("function evaluate(t) { return t.output === 'hello' }", { output: "hello" })).toMatchObject({ ok: true, value: true });
      }
    } finally {
      await small.dispose();
    }
  }, 60_000);

  it("refuses a huge allocation", async () => {
    expect(await sb.run("function evaluate() { return new ArrayBuffer(1 << 30).byteLength }", {})).toMatchObject({ ok: false, failure: "memory" });
  });

  it("stops unbounded recursion", async () => {
    const r = await sb.run("function evaluate() { function f(n) { return f(n + 1) + 1 } return f(0) }", {});
    expect(r).toMatchObject({ ok: false, failure: "crash" });
    expect(r.ok ? "" : r.message).toMatch(/stack overflow/);
  });

  it.each([
    ["process", "function evaluate() { return typeof process }", { ok: true, value: "undefined" }],
    [
      "globalThis.process",
      "function evaluate() { return globalThis.process.env.HOME }",
      { ok: false, failure: "crash", message: expect.stringContaining("TypeError") },
    ],
    [
      "require",
      "function evaluate() { return require('fs').readFileSync('/etc/passwd', 'utf8') }",
      { ok: false, failure: "crash", message: "ReferenceError: 'require' is not defined" },
    ],
    [
      "fetch",
      "function evaluate() { return fetch('http://127.0.0.1:1/') }",
      { ok: false, failure: "crash", message: "ReferenceError: 'fetch' is not defined" },
    ],
    [
      "XMLHttpRequest / WebSocket",
      "function evaluate() { return [typeof XMLHttpRequest, typeof WebSocket, typeof navigator] }",
      { ok: true, value: ["undefined", "undefined", "undefined"] },
    ],
    [
      "dynamic import of fs",
      "async function evaluate() { const fs = await import('fs'); return fs.readFileSync('/etc/passwd', 'utf8') }",
      { ok: false, failure: "crash", message: expect.stringContaining("could not load module 'fs'") },
    ],
    [
      "quickjs std/os modules",
      "function evaluate() { return [typeof std, typeof os, typeof scriptArgs, typeof Deno, typeof Bun] }",
      { ok: true, value: ["undefined", "undefined", "undefined", "undefined", "undefined"] },
    ],
    [
      "anything beyond ECMAScript built-ins (only console and evaluate are added)",
      `function evaluate() {
        const builtins = new Set(${JSON.stringify(ECMASCRIPT_GLOBALS)});
        return Object.getOwnPropertyNames(globalThis).filter((k) => !builtins.has(k) && !k.startsWith("__bw$"));
      }`,
      { ok: true, value: ["console", "evaluate"] },
    ],
  ])("cannot reach %s", async (_name, code, expected) => {
    expect(await sb.run(code, {})).toMatchObject(expected);
  });

  it("reports a return value that cannot be JSON", async () => {
    expect(await sb.run("function evaluate() { const a = {}; a.self = a; return a }", {})).toMatchObject({ ok: false, failure: "unserializable" });
  });

  it("reports an input that cannot be JSON", async () => {
    expect(await sb.run("function evaluate() { return true }", { n: 1n })).toMatchObject({ ok: false, failure: "unserializable" });
  });

  it("keeps working after failures", async () => {
    expect(await sb.run("function evaluate() { return 'still fine' }", {})).toMatchObject({ ok: true, value: "still fine" });
  });

  it("checkCode reports load problems without running evaluate", async () => {
    expect(await sb.checkCode("function evaluate() { throw new Error('only at run time') }")).toBeNull();
    expect(await sb.checkCode("function evaluate( {")).toMatch(/^the code has a syntax error: SyntaxError/);
    expect(await sb.checkCode("function nope() {}")).toBe("the code does not define a function named evaluate (evaluate is not defined)");
    expect(await sb.checkCode("throw new Error('x'); function evaluate() {}")).toBe("the code threw while loading: Error: x");
  });
});

describe("worker sandbox", () => {
  let sb: WorkerSandbox;
  beforeAll(async () => {
    // A short grace before the thread is stopped; ample deadlines for the calls that should succeed.
    sb = await WorkerSandbox.create({ timeoutMs: AMPLE, graceMs: 100 });
  });
  afterAll(async () => {
    await sb.dispose();
  });

  it("stops a thread stuck inside one long built-in call and serves the next call on a new thread", async () => {
    const before = sb.threadsStarted;
    // A naive search of a 300,000-character needle in 3,000,000 characters: hours inside one call,
    // where QuickJS never consults its interrupt handler. The 2 s deadline only has to outlast the
    // thread's way into that call.
    const r = await sb.run(
      "function evaluate() { const h = 'a'.repeat(3000000); const n = 'a'.repeat(300000) + 'b'; return h.indexOf(n) }",
      {},
      { timeoutMs: 2_000 },
    );
    expect(r).toMatchObject({ ok: false, failure: "timeout", message: "timed out after 2000 ms (the sandbox thread was stopped)" });
    expect(await sb.run("function evaluate() { return 42 }", {})).toMatchObject({ ok: true, value: 42 });
    expect(sb.threadsStarted).toBe(before + 1);
  });

  it("does not block the caller's event loop", async () => {
    const other = await WorkerSandbox.create({ timeoutMs: AMPLE });
    let settled = false;
    const call = other.run("function evaluate() { for (;;) {} }", {}).finally(() => (settled = true));
    // Timers fire while the endless call runs on its thread; it ends only when the sandbox is disposed.
    for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 5));
    expect(settled).toBe(false);
    await other.dispose();
    expect(await call).toMatchObject({ ok: false, failure: "host", message: "the sandbox was disposed" });
  });

  it("queues concurrent calls and answers each", async () => {
    const results = await Promise.all([1, 2, 3, 4].map((n) => sb.run("function evaluate({ n }) { return n * 2 }", { n })));
    expect(results.map((r) => (r.ok ? r.value : null))).toEqual([2, 4, 6, 8]);
  });

  it("a call that hangs until its deadline does not hold up another call: each runs on a thread of its own", async () => {
    const box = await WorkerSandbox.create();
    const events: string[] = [];
    const hung = box.run("function evaluate() { for (;;) {} }", {}, { timeoutMs: 30_000 }).then((r) => (events.push("hung call ended"), r));
    const quick = await box.run("function evaluate({ n }) { return n * 2 }", { n: 21 });
    events.push("quick call ended");
    expect(quick).toMatchObject({ ok: true, value: 42 });
    // The hung call is still running (its deadline is 30 s away): the quick one did not wait for it.
    expect(events).toEqual(["quick call ended"]);
    expect(box.threadsStarted).toBe(2);
    await box.dispose();
    expect(await hung).toMatchObject({ ok: false, failure: "host", message: "the sandbox was disposed" });
    expect(events).toEqual(["quick call ended", "hung call ended"]);
  }, 60_000);

  it("runs at most maxThreads calls at once; a call beyond waits for a free thread", async () => {
    const box = await WorkerSandbox.create({ maxThreads: 2, timeoutMs: 300, graceMs: 10_000 }); // the deadline, not the grace, ends them
    const events: string[] = [];
    const hang = (name: string) => box.run("function evaluate() { for (;;) {} }", {}).then((r) => (events.push(name), r));
    const calls = [hang("hung 1"), hang("hung 2"), box.run("function evaluate() { return 'third' }", {}).then((r) => (events.push("third"), r))];
    const [a, b, third] = await Promise.all(calls);
    expect([a, b].map((r) => !r.ok && r.failure)).toEqual(["timeout", "timeout"]);
    expect(third).toMatchObject({ ok: true, value: "third" });
    expect(events.indexOf("third")).toBeGreaterThan(0); // it started only after a hung call ended
    expect(box.threadsStarted).toBe(2);
    await box.dispose();
  }, 60_000);

  it("stops idle extra threads and keeps one", async () => {
    const box = await WorkerSandbox.create({ idleMs: 0 });
    const results = await Promise.all(
      [1, 2, 3].map((n) => box.run("function evaluate({ n }) { const t = Date.now(); while (Date.now() - t < 50) {} return n }", { n })),
    );
    expect(results.map((r) => (r.ok ? r.value : null))).toEqual([1, 2, 3]);
    await vi.waitFor(() => expect(box.threadCount).toBe(1));
    expect(await box.run("function evaluate() { return 'still here' }", {})).toMatchObject({ ok: true, value: "still here" });
    await box.dispose();
  });

  it("answers calls after dispose with a host failure", async () => {
    const other = await WorkerSandbox.create();
    await other.dispose();
    expect(await other.run("function evaluate() { return 1 }", {})).toMatchObject({ ok: false, failure: "host", message: "the sandbox has been disposed" });
  });
});

describe("shared sandbox", () => {
  it("is created once and isolates with a worker thread", async () => {
    const a = await getSharedSandbox();
    const b = await getSharedSandbox();
    expect(a).toBe(b);
    expect(a.isolation).toBe("worker");
  });

  it("in-process sandbox can run synchronously", async () => {
    const sb = await InProcessSandbox.create();
    expect(sb.runSync("function evaluate() { return [1, 'a', null, true] }", {})).toMatchObject({ ok: true, value: [1, "a", null, true] });
    await sb.dispose();
  });
});
