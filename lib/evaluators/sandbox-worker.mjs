// Worker-thread host of the custom-evaluator sandbox (see sandbox.ts, WorkerSandbox).
// Loads QuickJS once, then answers { id, code, input, timeoutMs, probe } messages one at a time
// with { id, outcome }. The parent terminates this thread when a call overruns its deadline
// (e.g. inside one long built-in call, where QuickJS's interrupt handler is not consulted).
import { parentPort, workerData } from "node:worker_threads";
import { createCoreSandbox } from "./sandbox-core.mjs";
import { loadBoundedQuickJS } from "./sandbox-quickjs.mjs";

// A module of this thread's own, its memory bounded by the cap (see sandbox-quickjs.mjs).
const quickjs = await loadBoundedQuickJS(workerData.memoryLimitBytes);
const core = createCoreSandbox(quickjs, workerData);

parentPort.on("message", (msg) => {
  const outcome = core.run(msg.code, msg.input, msg.timeoutMs, msg.probe === true);
  // retire: this thread's module holds a runtime it could not free; the parent replaces the thread.
  parentPort.postMessage({ id: msg.id, outcome, retire: !core.healthy });
});
parentPort.postMessage({ ready: true });
