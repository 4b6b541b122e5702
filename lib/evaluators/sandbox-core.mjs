// Core of the custom-evaluator sandbox, shared by the in-process sandbox (sandbox.ts) and the
// worker thread (sandbox-worker.mjs). Plain JavaScript so the worker can load it without a
// TypeScript loader; types are in sandbox-core.d.mts. It imports nothing: the caller passes the
// loaded QuickJS WebAssembly module.
//
// Each call runs in a fresh QuickJS context (its own global object) of one runtime that carries the
// memory and stack caps. The deadline is enforced by QuickJS's interrupt handler (uncatchable
// inside the sandbox). After a timeout, an out-of-memory or a host-side failure the runtime is
// dropped and a new one is made for the next call.

/** Log lines kept per call (console.log etc.), each cut to 500 characters. */
export const MAX_LOG_LINES = 50;

/** Code evaluated in every fresh context before the user's code: console capture and the runner. */
export const PRELUDE = String.raw`
var __bw$logs = [];
var __bw$state = null;
var __bw$stringify = JSON.stringify;
var __bw$parse = JSON.parse;
var console = (function () {
  function text(a) {
    if (typeof a === "string") return a;
    try { var s = __bw$stringify(a); return s === undefined ? String(a) : s; } catch (e) { return String(a); }
  }
  function make(level) {
    return function () {
      if (__bw$logs.length >= ${MAX_LOG_LINES}) return;
      var parts = [];
      for (var i = 0; i < arguments.length; i++) parts.push(text(arguments[i]));
      __bw$logs.push(((level === "log" ? "" : level + ": ") + parts.join(" ")).slice(0, 500));
    };
  }
  return { log: make("log"), info: make("info"), warn: make("warn"), error: make("error"), debug: make("debug") };
})();
function __bw$pack(r) {
  var t = r === null ? "null" : Array.isArray(r) ? "array" : typeof r;
  var keep = t === "object" || t === "array" || t === "boolean" || t === "number" || t === "string" || t === "null";
  try { return __bw$stringify({ s: "done", t: t, v: keep ? r : null, logs: __bw$logs }); }
  catch (e) { return __bw$stringify({ s: "unserializable", e: String(e && e.message !== undefined ? e.message : e), logs: __bw$logs }); }
}
function __bw$err(e) {
  var name = e && e.name ? String(e.name) : "";
  var msg = e && e.message !== undefined ? String(e.message) : String(e);
  return __bw$stringify({ s: "threw", e: name ? name + ": " + msg : msg, logs: __bw$logs });
}
function __bw$run(json) {
  if (typeof evaluate !== "function") return __bw$stringify({ s: "missing", t: typeof evaluate, logs: __bw$logs });
  var r;
  try { r = evaluate(__bw$parse(json)); } catch (e) { return __bw$err(e); }
  if (r !== null && (typeof r === "object" || typeof r === "function") && typeof r.then === "function") {
    __bw$state = { s: "pending" };
    r.then(function (v) { __bw$state = { s: "ok", v: v }; }, function (e) { __bw$state = { s: "err", e: e }; });
    return __bw$stringify({ s: "promise" });
  }
  return __bw$pack(r);
}
function __bw$collect() {
  if (!__bw$state || __bw$state.s === "pending") return __bw$stringify({ s: "pending", logs: __bw$logs });
  return __bw$state.s === "ok" ? __bw$pack(__bw$state.v) : __bw$err(__bw$state.e);
}
function __bw$probe() {
  return typeof evaluate;
}
`;

function errorText(ctx, handle) {
  try {
    const v = ctx.dump(handle);
    if (v && typeof v === "object") {
      const name = typeof v.name === "string" ? v.name : "";
      const message = typeof v.message === "string" ? v.message : JSON.stringify(v);
      return name ? `${name}: ${message}` : message;
    }
    return String(v);
  } catch {
    return "unknown error";
  }
}

function classify(text, timedOut) {
  if (timedOut || /\binterrupted\b/.test(text)) return "timeout";
  if (/out of memory/i.test(text)) return "memory";
  if (/^SyntaxError/.test(text)) return "compile";
  if (/stack overflow/i.test(text)) return "crash";
  return "crash";
}

/** Calls a global function of the context with an optional string argument; returns its string result. */
function callGlobal(ctx, name, arg) {
  const fn = ctx.getProp(ctx.global, name);
  const argHandle = arg === undefined ? null : ctx.newString(arg);
  try {
    const res = argHandle ? ctx.callFunction(fn, ctx.undefined, argHandle) : ctx.callFunction(fn, ctx.undefined);
    if (res.error) {
      const text = errorText(ctx, res.error);
      res.error.dispose();
      return { error: text };
    }
    const out = ctx.typeof(res.value) === "string" ? ctx.getString(res.value) : null;
    res.value.dispose();
    if (out === null) return { error: "the sandbox runner did not return text" };
    return { text: out };
  } finally {
    argHandle?.dispose();
    fn.dispose();
  }
}

/**
 * Creates the sandbox core over a loaded QuickJS module.
 * @param {import("quickjs-emscripten").QuickJSWASMModule} quickjs
 * @param {{ memoryLimitBytes: number, maxStackBytes: number }} limits
 */
export function createCoreSandbox(quickjs, limits) {
  let runtime = null;
  // False once a runtime had to be dropped without being freed: its memory stays taken in the
  // module (whose memory is bounded), so the host replaces the module before the next call.
  let healthy = true;

  function getRuntime() {
    if (!runtime) {
      const rt = quickjs.newRuntime();
      rt.setMemoryLimit(limits.memoryLimitBytes);
      rt.setMaxStackSize(limits.maxStackBytes);
      runtime = rt;
    }
    return runtime;
  }

  function dropRuntime(disposeIt) {
    const rt = runtime;
    runtime = null;
    if (rt && !disposeIt) healthy = false;
    if (rt && disposeIt) {
      try {
        rt.dispose();
      } catch {
        /* a broken runtime may fail to dispose: drop it */
      }
    }
  }

  /**
   * Runs `code` and calls `evaluate(JSON.parse(inputJson))`, or with `probe` only checks that
   * `evaluate` is defined after loading the code.
   * @returns {{ ok: true, value: unknown, logs: string[], durationMs: number } | { ok: false, failure: string, message: string, logs: string[], durationMs: number }}
   */
  function run(code, inputJson, timeoutMs, probe) {
    const started = performance.now();
    const done = (r) => ({ ...r, durationMs: performance.now() - started });
    const deadline = started + timeoutMs;
    let timedOut = false;
    let reset = false;
    let hostFailure = false;
    let rt;
    try {
      rt = getRuntime();
    } catch (e) {
      return done({ ok: false, failure: "host", message: String(e && e.message ? e.message : e), logs: [] });
    }
    rt.setInterruptHandler(() => {
      if (performance.now() > deadline) timedOut = true;
      return timedOut;
    });
    let ctx = null;
    const fail = (text, logs = []) => {
      const failure = classify(text, timedOut);
      if (failure === "timeout" || failure === "memory") reset = true;
      return done({ ok: false, failure, message: failure === "timeout" ? `timed out after ${timeoutMs} ms` : text, logs });
    };
    try {
      ctx = rt.newContext();
      const prelude = ctx.evalCode(PRELUDE, "benchwork-prelude.js");
      if (prelude.error) {
        const text = errorText(ctx, prelude.error);
        prelude.error.dispose();
        reset = true;
        return done({ ok: false, failure: timedOut ? "timeout" : "host", message: text, logs: [] });
      }
      prelude.value.dispose();
      const loaded = ctx.evalCode(code, "evaluator.js");
      if (loaded.error) {
        const text = errorText(ctx, loaded.error);
        loaded.error.dispose();
        const r = fail(text);
        return r.failure === "crash" ? { ...r, message: `the code threw while loading: ${text}` } : r;
      }
      loaded.value.dispose();
      if (probe) {
        const kind = callGlobal(ctx, "__bw$probe");
        if (kind.error) return fail(kind.error);
        return kind.text === "function"
          ? done({ ok: true, value: null, logs: [] })
          : done({
              ok: false,
              failure: "missing-evaluate",
              message: `the code does not define a function named evaluate (evaluate is ${kind.text === "undefined" ? "not defined" : `a ${kind.text}`})`,
              logs: [],
            });
      }
      let reply = callGlobal(ctx, "__bw$run", inputJson);
      if (reply.error) return fail(reply.error);
      let packet = JSON.parse(reply.text);
      if (packet.s === "promise") {
        const jobs = rt.executePendingJobs();
        if (jobs.error) {
          const text = errorText(jobs.error.context, jobs.error);
          jobs.error.dispose();
          return fail(text);
        }
        reply = callGlobal(ctx, "__bw$collect");
        if (reply.error) return fail(reply.error);
        packet = JSON.parse(reply.text);
      }
      const logs = Array.isArray(packet.logs) ? packet.logs.map(String) : [];
      switch (packet.s) {
        case "done":
          return done({ ok: true, value: packet.t === "undefined" ? undefined : packet.v, logs });
        case "missing":
          return done({
            ok: false,
            failure: "missing-evaluate",
            message: `the code does not define a function named evaluate (evaluate is ${packet.t === "undefined" ? "not defined" : `a ${packet.t}`})`,
            logs,
          });
        case "threw": {
          const r = fail(packet.e ?? "unknown error", logs);
          return r.failure === "compile" ? { ...r, failure: "crash" } : r;
        }
        case "pending":
          return done({ ok: false, failure: "pending", message: "evaluate returned a promise that never settled", logs });
        case "unserializable":
          return done({ ok: false, failure: "unserializable", message: `the returned value cannot be converted to JSON: ${packet.e ?? ""}`, logs });
        default:
          return done({ ok: false, failure: "host", message: "unexpected sandbox reply", logs });
      }
    } catch (e) {
      // A host-side exception (e.g. the native stack overflowed inside WebAssembly) leaves the
      // runtime in an unknown state: drop it without disposing it.
      hostFailure = true;
      const text = String(e && e.message ? e.message : e);
      return done({
        ok: false,
        failure: timedOut ? "timeout" : /call stack/i.test(text) ? "crash" : "host",
        message: timedOut ? `timed out after ${timeoutMs} ms` : /call stack/i.test(text) ? `stack overflow (${text})` : text,
        logs: [],
      });
    } finally {
      if (!hostFailure) {
        try {
          ctx?.dispose();
        } catch {
          reset = true;
        }
        try {
          rt.removeInterruptHandler();
        } catch {
          reset = true;
        }
      }
      if (hostFailure) dropRuntime(false);
      else if (reset) dropRuntime(true);
    }
  }

  return {
    run,
    get healthy() {
      return healthy;
    },
    dispose() {
      dropRuntime(true);
    },
  };
}
